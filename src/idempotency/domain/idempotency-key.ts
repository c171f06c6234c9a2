/** X1: the request header that makes a POST, PUT or PATCH safe to retry. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** X1: at most this many characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * X1: why a header value is not an idempotency key (1 to 255 characters, each in the visible ASCII
 * range 0x21-0x7E), or null when it is one. A header sent twice reaches us joined with ", ", which
 * holds a space: refused like any other value with a space.
 */
export function idempotencyKeyProblem(value: string): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
  }
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return 'must hold only visible ASCII characters (0x21-0x7E)';
  }
  return null;
}
