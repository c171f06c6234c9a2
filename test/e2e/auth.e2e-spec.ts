import { DataSource } from 'typeorm';
import { CreateApiKeyUseCase } from '../../src/vendors/application/create-api-key.use-case';
import { RevokeApiKeyUseCase } from '../../src/vendors/application/revoke-api-key.use-case';
import { ProbeController } from '../support/probe.controller';
import { ISO_DATETIME, TestApp, createTestApp, createVendor } from '../support/test-app';

/** docs/api.md "Authentication", D7, D8, D9, D10. */
describe('authentication', () => {
  let t: TestApp;
  let apiKey: string;
  let vendorId: number;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ProbeController] });
    ({ apiKey, vendorId } = await createVendor(t.app));
  });
  afterAll(() => t.close());

  function expectAuthError(body: Record<string, unknown>, code: string) {
    // The authentication shape: no status field, no errors array, data null (D7).
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success', 'timestamp']);
    expect(body).toMatchObject({ success: false, message: code, data: null });
    expect(body.timestamp).toMatch(ISO_DATETIME);
  }

  it.each([
    '/',
    '/api/v1/partners',
    '/api/v1/vendors',
    '/API/v1/vendors/partners',
    '/healthz',
    '/readyz',
    '/metrics',
    '/api/v2/vendors/x',
  ])(
    'refuses %s outside the namespace with 401 UNKNOWN_API_NAMESPACE, even with a valid key (D8, D10)',
    async (path) => {
      const response = await t.http.get(path).set('X-API-KEY', apiKey);
      expect(response.status).toBe(401);
      expectAuthError(response.body, 'UNKNOWN_API_NAMESPACE');
    },
  );

  it('refuses a request without the header with 401 API_KEY_MISSING', async () => {
    const response = await t.http.get('/api/v1/vendors/nothing');
    expect(response.status).toBe(401);
    expectAuthError(response.body, 'API_KEY_MISSING');
  });

  it('treats an empty or blank header as missing (D8)', async () => {
    for (const value of ['', '   ']) {
      const response = await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', value);
      expect(response.status).toBe(401);
      expectAuthError(response.body, 'API_KEY_MISSING');
    }
  });

  it('refuses an unknown key with 401 INVALID_API_KEY', async () => {
    const response = await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', `${apiKey}x`);
    expect(response.status).toBe(401);
    expectAuthError(response.body, 'INVALID_API_KEY');
  });

  it('authenticates before reading the body: no key and invalid JSON or a huge body is still 401 (D8, D37)', async () => {
    const invalid = await t.http
      .post('/api/v1/vendors/probe/abc')
      .set('Content-Type', 'application/json')
      .send('{not json');
    expect(invalid.status).toBe(401);
    expectAuthError(invalid.body, 'API_KEY_MISSING');

    const huge = await t.http
      .post('/api/v1/vendors/probe/1')
      .set('X-API-KEY', 'wrong')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(401);
    expectAuthError(huge.body, 'INVALID_API_KEY');
  });

  it('lets a valid key reach the route; an unknown route in the namespace is then 404 (D11)', async () => {
    const response = await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', apiKey);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      message: 'RESOURCE_NOT_FOUND',
      status: 404,
      success: false,
      errors: [],
    });
  });

  it('judges the body before existence on an unknown route or method: an unusable body is 400 INVALID_REQUEST (D37, D11)', async () => {
    const sent = [
      ['post', '/api/v1/vendors/nothing', 'application/json', '{not json'],
      ['put', '/api/v1/vendors/probe/1/nothing', 'application/json', '['.repeat(40) + ']'.repeat(40)],
      ['delete', '/api/v1/vendors/probe/1', 'application/json', '{'],
      ['patch', '/api/v1/vendors/nothing', 'text/plain', 'name=a'],
    ] as const;
    for (const [method, path, type, body] of sent) {
      const response = await t.http[method](path)
        .set('X-API-KEY', apiKey)
        .set('Content-Type', type)
        .send(body);
      expect({ method, path, status: response.status, body: response.body }).toEqual({
        method,
        path,
        status: 400,
        body: {
          message: 'INVALID_REQUEST',
          status: 400,
          success: false,
          errors: [],
          timestamp: expect.any(String),
        },
      });
    }
    // a usable body, or none, leaves the answer to existence
    const usable = await t.http.post('/api/v1/vendors/nothing').set('X-API-KEY', apiKey).send({ name: 'a' });
    expect([usable.status, usable.body.message]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    const none = await t.http.delete('/api/v1/vendors/probe/1').set('X-API-KEY', apiKey);
    expect([none.status, none.body.message]).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });

  it('answers an unknown method on a known path with 404 RESOURCE_NOT_FOUND (D11)', async () => {
    const response = await t.http.delete('/api/v1/vendors/probe/1').set('X-API-KEY', apiKey);
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('RESOURCE_NOT_FOUND');
  });

  it('gives the route the vendor of the key, never one from the body', async () => {
    const response = await t.http
      .post('/api/v1/vendors/probe/1')
      .set('X-API-KEY', apiKey)
      .send({
        name: 'a',
        email: 'a@example.com',
        items: [{ firstName: 'x', emailAddress: 'x@example.com' }],
        vendorId: 999,
      });
    expect(response.status).toBe(200);
    expect(response.body.data.vendorId).toBe(vendorId);
  });

  it('accepts several active keys per vendor and refuses a revoked key from the next request on (D9)', async () => {
    const { apiKey: second } = await t.app.get(CreateApiKeyUseCase).execute(vendorId);
    expect(second).not.toBe(apiKey);
    expect((await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', second)).status).toBe(404);

    await t.app.get(RevokeApiKeyUseCase).execute(second);
    const refused = await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', second);
    expect(refused.status).toBe(401);
    expectAuthError(refused.body, 'INVALID_API_KEY');
    // the first key is unaffected
    expect((await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', apiKey)).status).toBe(404);
  });

  it('stores only a hash of the key and records lastUsedAt', async () => {
    const { apiKey: key } = await t.app.get(CreateApiKeyUseCase).execute(vendorId);
    await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', key);
    const rows: { key_hash: string; key_prefix: string; last_used_at: unknown }[] = await t.app
      .get(DataSource)
      .query('SELECT key_hash, key_prefix, last_used_at FROM api_keys WHERE vendor_id = ?', [vendorId]);
    expect(rows.some((row) => row.key_hash.includes(key) || row.key_prefix === key)).toBe(false);
    const used = rows.filter((row) => row.last_used_at !== null);
    expect(used.length).toBeGreaterThanOrEqual(1);
  });
});
