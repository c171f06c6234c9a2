import { foldCase } from '../../domain/text';
import { prefixRange } from './prefix-range';

/** Code point order, the order of SQLite's BINARY and MySQL's NO PAD binary collation on these columns. */
function compare(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const inRange = (value: string, { from, to }: { from: string; to: string | null }) =>
  compare(value, from) >= 0 && (to === null || compare(value, to) < 0);

describe('prefixRange (docs/leads-indexes.md)', () => {
  it('is the folded keyword and the keyword with its last code point raised', () => {
    expect(prefixRange('Ann')).toEqual({ from: 'ann', to: 'ano' });
    expect(prefixRange('50%_')).toEqual({ from: '50%_', to: '50%`' });
    expect(prefixRange('a\u{D7FF}')).toEqual({ from: 'a\u{D7FF}', to: 'a\u{E000}' });
    expect(prefixRange('b\u{10FFFF}')).toEqual({ from: 'b\u{10FFFF}', to: 'c' });
    expect(prefixRange('\u{10FFFF}')).toEqual({ from: '\u{10FFFF}', to: null });
  });

  it('holds exactly the values that start with the folded keyword', () => {
    const alphabet = [
      'a',
      'b',
      'z',
      '%',
      '_',
      '!',
      '\\',
      'é',
      '\u{D7FF}',
      '\u{E000}',
      '\u{FFFF}',
      '😀',
      '\u{10FFFF}',
    ];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const word = (max: number) =>
      Array.from(
        { length: Math.floor(random() * max) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    for (let i = 0; i < 3000; i++) {
      const keyword = word(3) || 'a';
      const value = foldCase(random() < 0.5 ? keyword + word(3) : word(5));
      expect(inRange(value, prefixRange(keyword))).toBe(value.startsWith(foldCase(keyword)));
    }
  });
});
