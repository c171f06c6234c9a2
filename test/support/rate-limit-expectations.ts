import { ISO_DATETIME } from './test-app';

/** The X6 headers of an answer counted against a limit. */
export function expectRateLimitHeaders(headers: Record<string, string>, limit: number, remaining: number) {
  expect(headers['ratelimit-limit']).toBe(String(limit));
  expect(headers['ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(headers['ratelimit-reset']);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
}

/** A 429 RATE_LIMITED answer in the standard error shape, with a Retry-After of 1-60 s. */
export function expectRateLimited(response: {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({
    message: 'RATE_LIMITED',
    status: 429,
    success: false,
    errors: [],
    timestamp: expect.stringMatching(ISO_DATETIME),
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}
