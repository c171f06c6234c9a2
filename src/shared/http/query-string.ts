/**
 * A query parameter value whose percent-encoding cannot be decoded (`%ZZ`, or `%C3%28`, which is
 * not UTF-8). Kept as a value instead of the raw text fastify's parser would keep, so that a known
 * parameter carrying it is VALIDATION_FAILED naming the parameter (QueryReader), while an unknown
 * one is ignored like any unknown parameter (D39).
 */
export class UndecodableValue {
  constructor(readonly raw: string) {}
}

export type QueryValue = string | UndecodableValue;
export type ParsedQuery = Record<string, QueryValue | QueryValue[]>;

function decode(text: string): string | undefined {
  const plain = text.indexOf('+') === -1 ? text : text.replace(/\+/g, ' ');
  if (plain.indexOf('%') === -1) return plain;
  try {
    return decodeURIComponent(plain);
  } catch {
    return undefined;
  }
}

/**
 * The query string parser of the public port, in place of fastify's: the same rules (`&` and `=`,
 * `+` is a space, a repeated name becomes a list, an object without prototype, so `__proto__` is
 * just a name), except that a value that does not decode is an UndecodableValue rather than its raw
 * text. A name that does not decode is kept as sent: it names no known parameter.
 */
export function parseQueryString(input: string): ParsedQuery {
  const result = Object.create(null) as ParsedQuery;
  for (const pair of input.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawKey = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    const key = decode(rawKey) ?? rawKey;
    if (key === '' && equals === -1) continue;
    const value: QueryValue = decode(rawValue) ?? new UndecodableValue(rawValue);
    const current = result[key];
    if (current === undefined) result[key] = value;
    else if (Array.isArray(current)) current.push(value);
    else result[key] = [current, value];
  }
  return result;
}
