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
