import { foldCase, isBlank } from './text';

describe('isBlank (D14)', () => {
  it.each([
    '',
    ' ',
    '\t\r\n',
    '\u0085',
    '\u00a0',
    '\u1680',
    '\u2000\u200a',
    '\u2028\u2029',
    '\u202f\u205f',
    '\u3000',
    '\ufeff',
  ])('is true for %j: empty, or white space only', (text) => {
    expect(isBlank(text)).toBe(true);
  });

  it.each(['a', ' a ', '\u0085x', '\u200b', '.'])('is false for %j', (text) => {
    expect(isBlank(text)).toBe(false);
  });
});

describe('foldCase (D13)', () => {
  it('lowers one code point at a time: the final sigma stays, İ keeps its form', () => {
    expect(foldCase('ΟΔΟΣ')).toBe('οδοσ');
    expect(foldCase('οδος')).toBe('οδος');
    expect(foldCase('İstanbul')).toBe('İstanbul');
    expect(foldCase('ẞ')).toBe('ß');
  });
});
