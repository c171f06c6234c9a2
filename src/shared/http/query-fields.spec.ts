import { parsePathId } from './query-fields';
import { codePointLength } from '../domain/text';

describe('parsePathId (D12, D39)', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['007', 7],
    ['9007199254740991', 9007199254740991],
  ])('reads %j as %i', (raw, id) => {
    expect(parsePathId(raw)).toBe(id);
  });

  it.each(['0', '00', '-1', '+1', '1.5', '1e3', 'abc', '', ' 1', '9007199254740992', '99999999999999999999'])(
    'refuses %j',
    (raw) => {
      expect(parsePathId(raw)).toBeUndefined();
    },
  );
});

describe('codePointLength (D14)', () => {
  it('counts code points, variation selectors and astral characters included', () => {
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('😀')).toBe(1);
    expect(codePointLength('☺\uFE0F')).toBe(2);
    expect(codePointLength('\uFE0F'.repeat(256))).toBe(256);
  });
});
