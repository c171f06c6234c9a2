import { codePointLength, foldCase } from './text';

/**
 * D13: addresses are stored as sent but compared case-insensitively everywhere.
 * The normalized form is what unique indexes and lookups use.
 */
export function normalizeEmail(address: string): string {
  return foldCase(address);
}

// The accepted syntax (docs/email-addresses.md): a subset of RFC 5321/6531 addresses that a mail
// server delivers to exactly as stored, and that cannot smuggle anything into an SMTP command or
// a mail header. No quoted local part (`"a b"@x`), no comments, no IP literals, no control,
// format or separator character anywhere, so no CR, LF, NUL, quote, angle bracket or space.

/** atext of RFC 5322, or a character beyond ASCII that is not a control, format or separator. */
const LOCAL_CHAR = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\p{C}\\p{Z}]";
/** A letter, mark or digit (any script): the ends and the inside of a domain label. */
const LABEL_CHAR = '[\\p{L}\\p{M}\\p{N}]';
const LABEL = `${LABEL_CHAR}(?:(?:${LABEL_CHAR}|-){0,61}${LABEL_CHAR})?`;
/**
 * The top-level label: at least two letters, with their marks, at most 63 characters (not digits
 * only, so no IP address; not marks only), or an A-label.
 */
const TOP_LABEL =
  '(?:(?=[\\p{L}\\p{M}]{2,63}$)\\p{L}\\p{M}*\\p{L}[\\p{L}\\p{M}]*|[Xx][Nn]--[A-Za-z0-9-]{1,59})';
const ADDRESS = new RegExp(
  `^(?:${LOCAL_CHAR})+(?:\\.(?:${LOCAL_CHAR})+)*@(?:${LABEL}\\.)+${TOP_LABEL}$`,
  'u',
);

/**
 * RFC 5321 4.5.3.1: a local part of at most 64 octets, a domain of at most 255 (253 written out).
 * The domain is counted in characters (code points, as D14 counts), as are its labels.
 */
const MAX_LOCAL_OCTETS = 64;
const MAX_DOMAIN_CHARACTERS = 253;

/**
 * D13: whether `address` is an email address of the accepted syntax. The one rule for every email
 * field (partner contact, partner users, reinvite, leads, the bulk import).
 */
export function isDeliverableEmailAddress(address: string): boolean {
  if (!ADDRESS.test(address)) return false;
  const at = address.lastIndexOf('@');
  // a UTF-16 unit is at most one character: a short domain needs no count
  const domainUnits = address.length - at - 1;
  if (domainUnits > MAX_DOMAIN_CHARACTERS && codePointLength(address.slice(at + 1)) > MAX_DOMAIN_CHARACTERS)
    return false;
  // a UTF-16 unit is at most 3 octets in UTF-8: a short local part needs no count
  return at * 3 <= MAX_LOCAL_OCTETS || utf8Length(address.slice(0, at)) <= MAX_LOCAL_OCTETS;
}

function utf8Length(text: string): number {
  let octets = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    octets += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return octets;
}
