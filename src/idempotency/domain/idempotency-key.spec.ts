import { MAX_IDEMPOTENCY_KEY_LENGTH, idempotencyKeyProblem } from './idempotency-key';

describe('idempotencyKeyProblem (X1)', () => {
  it('accepts 1 to 255 visible ASCII characters, the whole range 0x21-0x7E included', () => {
    expect(idempotencyKeyProblem('a')).toBeNull();
    expect(idempotencyKeyProblem('x'.repeat(MAX_IDEMPOTENCY_KEY_LENGTH))).toBeNull();
    const everyVisible = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) =>
      String.fromCharCode(0x21 + i),
    ).join('');
    expect(idempotencyKeyProblem(everyVisible)).toBeNull();
    expect(idempotencyKeyProblem('550e8400-e29b-41d4-a716-446655440000')).toBeNull();
  });

  it('refuses an empty value and one of 256 characters', () => {
    expect(idempotencyKeyProblem('')).toBe('must not be empty');
    expect(idempotencyKeyProblem('x'.repeat(256))).toBe('must be at most 255 characters');
  });

  it.each([
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['DEL (0x7F)', 'a\u007f'],
    ['a control character', 'a\u0001'],
    ['a Latin-1 letter', 'cl\u00e9'],
    ['an emoji', 'k\u{1F600}'],
    ['a header sent twice (joined with ", ")', 'a, b'],
  ])('refuses %s', (_name, value) => {
    expect(idempotencyKeyProblem(value)).toBe('must hold only visible ASCII characters (0x21-0x7E)');
  });
});
