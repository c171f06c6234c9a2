import { rawExchange } from '../support/raw-http';
import { invitePartner } from '../support/lead-fixtures';
import { TestApp, createTestApp, createVendor } from '../support/test-app';

const NS = '/api/v1/vendors';

describe('security headers', () => {
  let t: TestApp;
  let apiKey: string;
  let partnerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createVendor(t.app));
    partnerId = await invitePartner(t.http, apiKey);
  });
  afterAll(() => t.close());

  it('sends X-Content-Type-Options: nosniff and no X-Powered-By on every kind of answer', async () => {
    const responses = [
      await t.http.get(`${NS}/partners/${partnerId}/users`).set('X-API-KEY', apiKey), // 200
      await t.http.get(`${NS}/partners/abc/users`).set('X-API-KEY', apiKey), // 400
      await t.http
        .post(`${NS}/partners`)
        .set('X-API-KEY', apiKey)
        .set('Content-Type', 'application/json')
        .send('{'),
      await t.http.get(`${NS}/nothing`).set('X-API-KEY', apiKey), // 404
      await t.http.get(`${NS}/nothing`), // 401
      await t.http.get('/'), // 401 outside the namespace
      await t.http.options(`${NS}/leads/1`).set('X-API-KEY', apiKey), // 404
      await t.http
        .post(`${NS}/partners`)
        .set('X-API-KEY', apiKey)
        .set('Content-Type', 'application/json')
        .send(`"${'x'.repeat(1_100_000)}"`), // 413
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 400, 404, 401, 401, 404, 413]);
    for (const response of responses) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('sends nosniff on the answers of the HTTP parser and on CONNECT too', async () => {
    await t.app.listen(0, '127.0.0.1');
    const port = Number(new URL(await t.app.getUrl()).port);
    for (const bytes of [
      'FOO / HTTP/1.1\r\nHost: x\r\n\r\n',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n',
    ]) {
      const exchange = await rawExchange(port, bytes);
      expect(exchange.responses[0]!.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  describe('CORS, refused by default', () => {
    it('gives no Access-Control-Allow-Origin to any origin', async () => {
      const response = await t.http
        .get(`${NS}/partners/${partnerId}/users`)
        .set('X-API-KEY', apiKey)
        .set('Origin', 'https://evil.example');
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('answers a preflight like any request without a key: 401 API_KEY_MISSING, no CORS headers (D8)', async () => {
      const response = await t.http
        .options(`${NS}/partners`)
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'x-api-key, content-type');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false, message: 'API_KEY_MISSING', data: null });
      expect(Object.keys(response.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });
});

describe('CORS for the origins of CORS_ORIGINS', () => {
  let t: TestApp;
  let apiKey: string;
  const allowed = 'https://app.example.com';

  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: `${allowed}, http://localhost:5173` } });
    ({ apiKey } = await createVendor(t.app));
  });
  afterAll(() => t.close());

  const preflight = (origin: string) =>
    t.http
      .options(`${NS}/partners`)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'x-api-key, content-type');

  it('answers the preflight of an allowed origin before the key check, 200 in the success envelope', async () => {
    const response = await preflight(allowed);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: null,
      data: null,
      timestamp: expect.any(String),
    });
    expect(response.headers['access-control-allow-origin']).toBe(allowed);
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE');
    expect(response.headers['access-control-allow-headers']).toContain('X-API-KEY');
    expect(response.headers['access-control-max-age']).toBe('600');
    expect(response.headers.vary).toContain('Origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a preflight of an allowed origin outside the namespace UNKNOWN_API_NAMESPACE (D8)', async () => {
    const response = await t.http
      .options('/not-the-api')
      .set('Origin', allowed)
      .set('Access-Control-Request-Method', 'GET');
    expect(response.status).toBe(401);
    expect(response.body.message).toBe('UNKNOWN_API_NAMESPACE');
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers the preflight of any other origin like a request without a key (401, no CORS headers)', async () => {
    for (const origin of ['https://evil.example', 'https://app.example.com.evil.example', 'null']) {
      const response = await preflight(origin);
      expect(response.status).toBe(401);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('lets a page of an allowed origin read every answer, a refusal included', async () => {
    const refused = await t.http.get(`${NS}/nothing`).set('Origin', allowed);
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(allowed);
    const served = await t.http.get(`${NS}/nothing`).set('Origin', allowed).set('X-API-KEY', apiKey);
    expect(served.status).toBe(404);
    expect(served.headers['access-control-allow-origin']).toBe(allowed);
    expect(served.headers['access-control-expose-headers']).toContain('X-Request-Id');
    const other = await t.http
      .get(`${NS}/nothing`)
      .set('Origin', 'https://evil.example')
      .set('X-API-KEY', apiKey);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an OPTIONS of an allowed origin that is no preflight is an ordinary request (key first, then 404)', async () => {
    const response = await t.http.options(`${NS}/partners`).set('Origin', allowed);
    expect(response.status).toBe(401);
    const withKey = await t.http.options(`${NS}/partners`).set('Origin', allowed).set('X-API-KEY', apiKey);
    expect(withKey.status).toBe(404);
  });
});
