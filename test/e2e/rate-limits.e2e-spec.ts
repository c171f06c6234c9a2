import { Logger } from '@nestjs/common';
import { Metrics } from '../../src/shared/management/metrics';
import { countRows, invitePartner, leadBody } from '../support/lead-fixtures';
import { expectRateLimitHeaders, expectRateLimited } from '../support/rate-limit-expectations';
import { freePort } from '../support/server-process';
import { ISO_DATETIME, TestApp, createTestApp, createVendor } from '../support/test-app';

const NS = '/api/v1/vendors';

/** X6: per-vendor limit, counters in the process. */
describe('rate limit per vendor, in-process counters (X6)', () => {
  let t: TestApp;
  const LIMIT = 4;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(() => t.close());

  it('carries RateLimit headers on every authenticated answer, then refuses with 429 RATE_LIMITED and Retry-After', async () => {
    const { apiKey } = await createVendor(t.app);
    const get = (path: string) => t.http.get(`${NS}${path}`).set('X-API-KEY', apiKey);
    const found = await get('/nothing'); // an authenticated 404 counts and carries the headers
    expect(found.status).toBe(404);
    expectRateLimitHeaders(found.headers, LIMIT, 3);
    const invalid = await get('/partners/abc/users'); // so does a 400
    expect(invalid.status).toBe(400);
    expectRateLimitHeaders(invalid.headers, LIMIT, 2);
    const partnerId = await invitePartner(t.http, apiKey); // the 3rd request
    const listed = await get(`/partners/${partnerId}/users`);
    expect(listed.status).toBe(200);
    expectRateLimitHeaders(listed.headers, LIMIT, 0);

    const refused = await get(`/partners/${partnerId}/users`);
    expectRateLimited(refused);
    expectRateLimitHeaders(refused.headers, LIMIT, 0);
    expect(refused.headers['ratelimit-reset']).toBe(refused.headers['retry-after']);
  });

  it('runs nothing for a refused request: no lead written, the body not even read', async () => {
    const { apiKey, vendorId } = await createVendor(t.app);
    const partnerId = await invitePartner(t.http, apiKey);
    for (let i = 1; i < LIMIT; i += 1) await t.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey);
    const lead = leadBody();
    const refused = await t.http
      .post(`${NS}/partners/${partnerId}/leads`)
      .set('X-API-KEY', apiKey)
      .send(lead);
    expectRateLimited(refused);
    expect(
      await countRows(t.app, 'leads', 'vendor_id = ? AND email_address = ?', [vendorId, lead.emailAddress]),
    ).toBe(0);
    // invalid JSON would be 400 INVALID_REQUEST if anything after the limiter ran
    const malformed = await t.http
      .post(`${NS}/partners/${partnerId}/leads`)
      .set('X-API-KEY', apiKey)
      .set('Content-Type', 'application/json')
      .send('{');
    expectRateLimited(malformed);
  });

  it('counts each vendor on its own, and leaves refusals of authentication without RateLimit headers', async () => {
    const a = await createVendor(t.app);
    const b = await createVendor(t.app);
    for (let i = 0; i < LIMIT; i += 1) await t.http.get(`${NS}/nothing`).set('X-API-KEY', a.apiKey);
    expectRateLimited(await t.http.get(`${NS}/nothing`).set('X-API-KEY', a.apiKey));
    const other = await t.http.get(`${NS}/nothing`).set('X-API-KEY', b.apiKey);
    expect(other.status).toBe(404);
    expectRateLimitHeaders(other.headers, LIMIT, LIMIT - 1);
    const unauthenticated = await t.http.get(`${NS}/nothing`);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('rate limits switched off (0)', () => {
  it('serves every request, without RateLimit headers', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '0' } });
    try {
      const { apiKey } = await createVendor(t.app);
      for (let i = 0; i < 30; i += 1) {
        const response = await t.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey);
        expect(response.status).toBe(404);
        expect(response.headers['ratelimit-limit']).toBeUndefined();
        expect((await t.http.get(`${NS}/nothing`).set('X-API-KEY', 'prm_wrong')).status).toBe(401);
      }
    } finally {
      await t.close();
    }
  });
});

/** X8: failed authentications per client address. */
describe('failed authentications per address (X8)', () => {
  let t: TestApp;
  const LIMIT = 3;

  beforeAll(async () => {
    t = await createTestApp({ env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(() => t.close());

  it('refuses failures past the limit with 429 in the authentication shape; a valid key is still served', async () => {
    const { apiKey } = await createVendor(t.app);
    // namespace misses are no attempt to authenticate: not counted
    for (let i = 0; i < 5; i += 1) expect((await t.http.get('/elsewhere')).status).toBe(401);
    expect((await t.http.get(`${NS}/nothing`).set('X-API-KEY', 'prm_wrong1')).status).toBe(401);
    expect((await t.http.get(`${NS}/nothing`)).status).toBe(401); // a missing key counts too
    expect((await t.http.get(`${NS}/nothing`).set('X-API-KEY', 'prm_wrong2')).status).toBe(401);
    for (const attempt of [
      t.http.get(`${NS}/nothing`).set('X-API-KEY', 'prm_wrong3'),
      t.http.get(`${NS}/nothing`),
      t.http.post(`${NS}/partners`).set('X-API-KEY', 'prm_wrong1').send({}),
    ]) {
      const refused = await attempt;
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        success: false,
        message: 'RATE_LIMITED',
        data: null,
        timestamp: expect.stringMatching(ISO_DATETIME),
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    const served = await t.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey);
    expect(served.status).toBe(404);
    // the namespace is still answered as D8 says
    expect((await t.http.get('/elsewhere')).body.message).toBe('UNKNOWN_API_NAMESPACE');
  });
});

describe('rate limits when Redis is down (X7: fail open)', () => {
  it('serves requests from the start when nothing listens at REDIS_URL, with a log line and a metric', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const t = await createTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    });
    try {
      const { apiKey } = await createVendor(t.app);
      for (let i = 0; i < 5; i += 1) {
        const response = await t.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey);
        expect(response.status).toBe(404);
        expect(response.headers['ratelimit-limit']).toBeUndefined();
      }
      const metrics = await t.app.get(Metrics).registry.metrics();
      expect(metrics).toMatch(/^rate_limit_store_errors_total 5$/m);
      expect(metrics).toMatch(/^rate_limit_store_up 0$/m);
      const warnings = warn.mock.calls.filter((call) =>
        String(call[1]).includes('rate limit store (Redis) unavailable'),
      );
      expect(warnings).toHaveLength(1); // one line per outage, not one per request
    } finally {
      warn.mockRestore();
      await t.close();
    }
  });
});
