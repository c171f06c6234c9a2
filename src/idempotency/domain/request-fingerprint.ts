import { createHash } from 'node:crypto';

/**
 * The body of a request as X3 compares it: absent, a parsed JSON value, or a body that could not be
 * used (not JSON, wrong content type), which is compared by why it could not.
 */
export type FingerprintBody =
  { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'unusable'; reason: string };

/**
 * X3/X4: what makes two requests "the same": method, path and body, the body compared as parsed
 * JSON with object keys in any order. The three parts are framed so that no two different requests
 * give the same text, and hashed (SHA-256, hex) so that a record holds 64 characters whatever the
 * body's size.
 */
export function requestFingerprint(method: string, path: string, body: FingerprintBody): string {
  const bodyPart =
    body.kind === 'none' ? '-' : body.kind === 'json' ? `=${canonicalJson(body.value)}` : `!${body.reason}`;
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path.length}:${path}\n${bodyPart}`)
    .digest('hex');
}

/**
 * A JSON value written with every object's keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` give
 * the same text; arrays keep their order. Recursive: the body parser refuses bodies nested more than
 * 32 levels, so the depth is small.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  // A number too large for a double (`1e400`) parses to ±Infinity, which JSON.stringify would
  // write as null: written as itself, it cannot match a body that sent null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value) ?? 'null';
}
