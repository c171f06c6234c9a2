import { foldCase } from '../../domain/text';

/**
 * D33, X9: a keyword is a literal, case-insensitive prefix, matched against a stored lower-cased
 * copy (`foldCase`) as the range of values it selects: `from <= value < to` (`to` null: no upper
 * bound). The columns compare by code point (SQLite's BINARY, MySQL/MariaDB's NO PAD binary
 * collations), so the range holds exactly the values that start with the folded keyword, and no
 * character of the keyword is a wildcard. `to` is the keyword with its last code point raised by one
 * (past the surrogates; a last U+10FFFF is dropped and the one before raised).
 *
 * Written as a range rather than `LIKE 'prefix%'` on both engines: SQLite cannot use these indexes for
 * its LIKE, and MariaDB builds the index range of such a LIKE on `utf8mb4_nopad_bin` with U+FFFF as
 * the highest character, so `ann😀` (a character past U+FFFF right after the prefix) fell outside it
 * and was not found (docs/leads-indexes.md).
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

/** The condition "`column` starts with the keyword" as `prefixRange`'s range, with its parameters. */
export function startsWith(column: string, keyword: string): { sql: string; params: string[] } {
  const { from, to } = prefixRange(keyword);
  return to === null
    ? { sql: `${column} >= ?`, params: [from] }
    : { sql: `(${column} >= ? AND ${column} < ?)`, params: [from, to] };
}

/** "Any of `columns` starts with the keyword" (D33's first name or email, X9's name or email). */
export function anyStartsWith(columns: string[], keyword: string): { sql: string; params: string[] } {
  const conditions = columns.map((column) => startsWith(column, keyword));
  return {
    sql: `(${conditions.map((c) => c.sql).join(' OR ')})`,
    params: conditions.flatMap((c) => c.params),
  };
}
