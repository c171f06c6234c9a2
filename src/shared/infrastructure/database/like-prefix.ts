import { foldCase } from '../../domain/text';

/**
 * D33, X9: a keyword is a literal, case-insensitive prefix. The pattern is matched against a stored
 * lower-cased copy (`foldCase`), with `ESCAPE '!'`: `!` is the LIKE escape character on both engines
 * (a backslash would need different quoting in MySQL and SQLite string literals), so `!`, `%` and `_`
 * typed by the caller are escaped with it and match themselves, and `\` is an ordinary character.
 * The pattern stays a pure prefix, an index range on both engines.
 */
export function likePrefix(keyword: string): string {
  return `${foldCase(keyword).replace(/[!%_]/g, '!$&')}%`;
}

/**
 * The same prefix as `likePrefix`, as the range of stored lower-cased values it selects:
 * `from <= value < to` (`to` null: no upper bound), for SQLite, whose BINARY collation compares
 * these columns by code point: the range holds exactly the values that start with the folded
 * keyword, and it has no wildcard to escape. MySQL writes the LIKE itself, which it turns into the
 * same range (docs/leads-indexes.md). `to` is the keyword with its last code
 * point raised by one (past the surrogates; a last U+10FFFF is dropped and the one before raised).
 */
export function prefixRange(keyword: string): { from: string; to: string | null } {
  const from = foldCase(keyword);
  const points = Array.from(from, (c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      points.push(last + 1 === 0xd800 ? 0xe000 : last + 1);
      return { from, to: String.fromCodePoint(...points) };
    }
  }
  return { from, to: null };
}
