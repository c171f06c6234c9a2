import { QueryReader } from './query-reader';
import { UndecodableValue, parseQueryString } from './query-string';

describe('parseQueryString', () => {
  it('reads names and values, + as a space, repeats as a list, like fastify', () => {
    const parsed = parseQueryString('page=1&status=3&status=7&keyword=a+b%40c&empty=&flag');
    expect({ ...parsed }).toEqual({
      page: '1',
      status: ['3', '7'],
      keyword: 'a b@c',
      empty: '',
      flag: '',
    });
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });

  it('keeps __proto__ as a plain name', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(parsed.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each(['%ZZ', '%', 'abc%', '%C3%28', '%ED%A0%80', '%FF'])(
    'marks the value %j, which does not decode to UTF-8 text, instead of keeping its raw text',
    (raw) => {
      const parsed = parseQueryString(`keyword=${raw}&page=1`);
      expect(parsed.keyword).toEqual(new UndecodableValue(raw));
      expect(parsed.page).toBe('1');
    },
  );

  it('makes a known parameter with an undecodable value VALIDATION_FAILED naming it; ignores unknown ones', () => {
    const reader = new QueryReader(parseQueryString('keyword=%C3%28&status=1&status=%ZZ&other=%ZZ'));
    reader.text('keyword');
    reader.integerList('status');
    expect(reader.errors).toEqual([
      { field: 'keyword', error: 'must be UTF-8 text, percent-encoded' },
      { field: 'status', error: 'must be UTF-8 text, percent-encoded' },
    ]);
  });
});
