import { MAX_ATTEMPTS, retryDelay } from './webhook-dispatcher.settings';

describe('webhook retry schedule (X18)', () => {
  it('doubles from the base, capped at 720 times it', () => {
    expect([1, 2, 3, 10, 11, 14].map((n) => retryDelay(30_000, n))).toEqual([
      30_000, 60_000, 120_000, 15_360_000, 21_600_000, 21_600_000,
    ]);
  });

  it('keeps retrying for at least 24 hours with the default base of 30 s', () => {
    let total = 0;
    for (let failed = 1; failed < MAX_ATTEMPTS; failed++) total += retryDelay(30_000, failed);
    expect(total).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(total).toBe(3903 * 30_000); // 32.5 h, as docs/webhooks.md says
  });
});
