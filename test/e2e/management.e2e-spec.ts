import request from 'supertest';
import { DataSource } from 'typeorm';
import { ManagementServer } from '../../src/shared/management/management-server';
import { openApiDocument } from '../../src/shared/management/openapi';
import { freePort } from '../support/server-process';
import { TestApp, createTestApp, createVendor } from '../support/test-app';

/** D10: health, readiness, metrics and API docs on the management port, not on the public one. */
describe('management port', () => {
  let t: TestApp;
  let management: string;

  beforeAll(async () => {
    t = await createTestApp();
    const port = await t.app.get(ManagementServer).start(0, '127.0.0.1', openApiDocument(t.app));
    management = `http://127.0.0.1:${port}`;
  });
  afterAll(() => t.close());

  it('answers /healthz while the process is up', async () => {
    const response = await request(management).get('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 with the database up', async () => {
    const response = await request(management).get('/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
  });

  it('serves Prometheus metrics, with request durations of the public port by route pattern', async () => {
    const { apiKey } = await createVendor(t.app);
    await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', apiKey);
    const response = await request(management).get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.text).toContain('process_cpu_user_seconds_total');
    expect(response.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} \d+/,
    );
  });

  it('exports no rate_limit_store_up without REDIS_URL: the counters live in the process, no store can fail', async () => {
    const { apiKey } = await createVendor(t.app);
    await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', apiKey);
    const response = await request(management).get('/metrics');
    expect(response.text).not.toMatch(/^rate_limit_store_up/m);
    expect(response.text).toMatch(/^rate_limit_store_errors_total 0$/m);
  });

  it('serves the OpenAPI description', async () => {
    const response = await request(management).get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(response.body.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-KEY',
    });
    expect(response.body).toEqual(JSON.parse(JSON.stringify(openApiDocument(t.app))));
  });

  it('keeps these endpoints off the public port', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
      const response = await t.http.get(path);
      expect(response.status).toBe(401);
      expect(response.body.message).toBe('UNKNOWN_API_NAMESPACE');
    }
  });
});

describe('rate_limit_store_up where the rate-limit counters live in Redis (X7)', () => {
  it('is exported with REDIS_URL set, and reads 0 once a call to a Redis that is not there failed', async () => {
    const t = await createTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '5', REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    });
    try {
      const port = await t.app.get(ManagementServer).start(0, '127.0.0.1', {});
      const scrape = async () => (await request(`http://127.0.0.1:${port}`).get('/metrics')).text;
      expect(await scrape()).toMatch(/^rate_limit_store_up [01]$/m);
      const { apiKey } = await createVendor(t.app);
      expect((await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', apiKey)).status).toBe(404);
      expect(await scrape()).toMatch(/^rate_limit_store_up 0$/m);
    } finally {
      await t.close();
    }
  });
});

describe('readiness without a database', () => {
  it('answers /readyz 503 when the database is unreachable, /healthz still 200', async () => {
    const t = await createTestApp();
    try {
      const port = await t.app.get(ManagementServer).start(0, '127.0.0.1', {});
      await t.app.get(DataSource).destroy();
      const ready = await request(`http://127.0.0.1:${port}`).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'error' });
      expect((await request(`http://127.0.0.1:${port}`).get('/healthz')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
