/** D14: every string field allows 255 code points, except the long texts. */
export const SHORT_TEXT = 255;
/** D14: the long texts (a lead's productsInterested, a partner's description, a reject comment) allow 5,000. */
export const LONG_TEXT = 5000;

/** D14: lengths count Unicode code points (as MySQL's utf8mb4 VARCHAR(n) does), not UTF-16 units. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** D14: white space: Unicode's White_Space characters, and U+FEFF, which JavaScript's trim() removes too. */
const BLANK = /^[\p{White_Space}\uFEFF]*$/u;

/**
 * D14: whether a string is empty or only white space (a required string must not be). Wider than
 * `trim() === ''`, which keeps U+0085 (NEXT LINE), a White_Space character.
 */
export function isBlank(text: string): boolean {
  return BLANK.test(text);
}

/**
 * D13, D33: the lower-cased copy used for case-insensitive comparison (duplicates, lookups, keyword
 * search). Lower-cased one code point at a time, keeping a code point whose lower case would be
 * longer ('İ' -> 'i̇'), so the copy never outgrows the column of the value it mirrors.
 */
export function foldCase(text: string): string {
  let folded = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    folded += codePointLength(lower) === 1 ? lower : char;
  }
  return folded;
}

/** `foldCase` of an optional text: null stays null (the copy of a nullable column). */
export function foldCaseOrNull(text: string | null): string | null {
  return text === null ? null : foldCase(text);
}
