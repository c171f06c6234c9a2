import { Logger } from '@nestjs/common';
import { Metrics } from '../../src/shared/management/metrics';
import { expectRateLimited } from '../support/rate-limit-expectations';
import { PrivateRedis, redisKeyPrefix, startPrivateRedis, testRedisUrl } from '../support/redis';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { TestApp, createTestApp, createVendor } from '../support/test-app';

// Needs a Redis at TEST_REDIS_URL (default redis://127.0.0.1:6379) and the redis-server binary:
// `npm run test:redis` (docs/testing.md).

const NS = '/api/v1/vendors';

/** X7: counters in Redis, shared by every instance. */
describe('rate limits in Redis (X7)', () => {
  const LIMIT = 3;
  const keys = redisKeyPrefix();
  let one: TestApp;
  let two: TestApp;
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    // two instances of the service on one database (one SQLite file, or the MySQL test database)
    scratch = await createScratchDatabase();
    const env = {
      DATABASE_URL: scratch.url,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      AUTH_FAILURES_PER_MINUTE: '2',
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: keys.prefix,
    };
    one = await createTestApp({ env });
    two = await createTestApp({ env });
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await scratch.drop();
    await keys.cleanup();
  });

  it('shares one limit per vendor between two instances', async () => {
    const { apiKey } = await createVendor(one.app);
    const remaining: string[] = [];
    for (const t of [one, two, one]) {
      const response = await t.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey);
      expect(response.status).toBe(404);
      remaining.push(response.headers['ratelimit-remaining']!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expectRateLimited(await two.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey));
    expectRateLimited(await one.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey));
  });

  it('shares the failed-authentication count between instances', async () => {
    expect((await one.http.get(`${NS}/nothing`).set('X-API-KEY', 'prm_x')).status).toBe(401);
    expect((await two.http.get(`${NS}/nothing`).set('X-API-KEY', 'prm_y')).status).toBe(401);
    expect((await one.http.get(`${NS}/nothing`).set('X-API-KEY', 'prm_z')).status).toBe(429);
  });
});

describe('rate limits when Redis goes away mid-run and comes back (X7: fail open)', () => {
  let redis: PrivateRedis;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('limits, then serves without limit while Redis is gone, then limits again once it is back', async () => {
    const log = jest.spyOn(Logger.prototype, 'log');
    const { apiKey } = await createVendor(t.app);
    const get = () => t.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey);
    for (let i = 0; i < 3; i += 1) expect((await get()).status).toBe(404);
    expectRateLimited(await get());

    await redis.stop();
    for (let i = 0; i < 5; i += 1) {
      const response = await get();
      expect(response.status).toBe(404);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    }
    expect(await t.app.get(Metrics).registry.metrics()).toMatch(/^rate_limit_store_up 0$/m);

    // a new, empty Redis on the same port: the client reconnects and the counting starts again
    await redis.start();
    const deadline = Date.now() + 15_000;
    let response = await get();
    while (response.headers['ratelimit-limit'] === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await get();
    }
    expect(response.headers['ratelimit-limit']).toBe('3');
    expect(await t.app.get(Metrics).registry.metrics()).toMatch(/^rate_limit_store_up 1$/m);
    expect(log.mock.calls.some((call) => String(call[1]).includes('available again'))).toBe(true);
    log.mockRestore();
    for (let i = 0; i < 3; i += 1) await get();
    expectRateLimited(await get());
  }, 30_000);
});
