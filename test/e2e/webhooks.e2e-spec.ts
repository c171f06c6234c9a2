import { TestingModuleBuilder } from '@nestjs/testing';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { errorFields, vendorApi, VendorApi } from '../support/lead-fixtures';
import { ISO_DATETIME, TestApp, createTestApp, createVendor } from '../support/test-app';

const quietMail = (b: TestingModuleBuilder) =>
  b.overrideProvider(MailDispatcherSettings).useValue(new MailDispatcherSettings({ autoStart: false }));

/** X16: webhook endpoints through HTTP on the database under test. */
describe('Webhook endpoints (X16)', () => {
  let t: TestApp;
  let guarded: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, override: quietMail });
    guarded = await createTestApp({ override: quietMail });
  });
  afterAll(async () => {
    await t.close();
    await guarded.close();
  });

  async function vendor(app: TestApp = t): Promise<VendorApi> {
    const { apiKey } = await createVendor(app.app);
    return vendorApi(app.http, apiKey);
  }

  it('registers an endpoint and shows its secret once', async () => {
    const api = await vendor();
    const res = await api
      .post('/webhooks')
      .send({ url: 'http://127.0.0.1:9/hook', events: ['lead.approved', 'lead.created'], description: 'CRM' })
      .expect(200);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(
      ['id', 'url', 'events', 'description', 'secret', 'createdAt', 'disabledAt'].sort(),
    );
    expect(data).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['lead.approved', 'lead.created'],
      description: 'CRM',
      disabledAt: null,
    });
    expect(data.createdAt).toMatch(ISO_DATETIME);
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(data.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const list = await api.get('/webhooks').expect(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).not.toHaveProperty('secret');
    expect(list.body.data[0]).toMatchObject({ id: data.id, url: data.url, events: data.events });
  });

  it('gives every endpoint its own secret', async () => {
    const api = await vendor();
    const body = { url: 'https://hooks.example.com/a', events: ['*'] };
    const a = await api.post('/webhooks').send(body).expect(200);
    const b = await api.post('/webhooks').send(body).expect(200);
    expect(a.body.data.secret).not.toBe(b.body.data.secret);
    expect(a.body.data).toMatchObject({ events: ['*'], description: null });
  });

  it('refuses what is not an http(s) URL, and unknown or missing event names', async () => {
    const api = await vendor();
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://hooks.example.com/x', events: ['*'] }, 'url'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ events: ['*'] }, 'url'],
      [{ url: 'https://hooks.example.com/x', events: ['lead.deleted'] }, 'events'],
      [{ url: 'https://hooks.example.com/x', events: [] }, 'events'],
      [{ url: 'https://hooks.example.com/x', events: 'lead.created' }, 'events'],
      [{ url: 'https://hooks.example.com/x' }, 'events'],
      [{ url: 'https://hooks.example.com/x', events: ['*'], description: 'd'.repeat(256) }, 'description'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post('/webhooks').send(body).expect(400);
      expect(res.body.message).toBe('VALIDATION_FAILED');
      expect(errorFields(res.body)).toEqual([field]);
    }
    expect((await api.get('/webhooks').expect(200)).body.data).toEqual([]);
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://localhost:8080/hook',
    'http://10.1.2.3/hook',
    'http://172.16.5.4/hook',
    'http://192.168.0.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[fe80::1]/hook',
    'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
  ])('refuses %s unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (SSRF)', async (url) => {
    const api = await vendor(guarded);
    const res = await api
      .post('/webhooks')
      .send({ url, events: ['*'] })
      .expect(400);
    expect(res.body.message).toBe('VALIDATION_FAILED');
    expect(errorFields(res.body)).toEqual(['url']);
  });

  it('accepts a public address when private networks are refused', async () => {
    const api = await vendor(guarded);
    await api
      .post('/webhooks')
      .send({ url: 'https://93.184.216.34/hook', events: ['*'] })
      .expect(200);
  });

  it('deletes an endpoint; another vendor’s, or a deleted one, is 404', async () => {
    const mine = await createVendor(t.app);
    const theirs = await createVendor(t.app);
    const api = vendorApi(t.http, mine.apiKey);
    const id = (
      await api
        .post('/webhooks')
        .send({ url: 'https://hooks.example.com/d', events: ['*'] })
        .expect(200)
    ).body.data.id as number;
    const remove = (apiKey: string, webhookId: number | string = id) =>
      t.http.delete(`/api/v1/vendors/webhooks/${webhookId}`).set('X-API-KEY', apiKey);
    const foreign = await remove(theirs.apiKey).expect(404);
    expect(foreign.body.message).toBe('RESOURCE_NOT_FOUND');
    expect((await api.get('/webhooks').expect(200)).body.data).toHaveLength(1);
    // A DELETE takes no body: one sent is not read, so even a malformed one changes nothing
    const gone = await remove(mine.apiKey).set('Content-Type', 'application/json').send('{"a":').expect(200);
    expect(gone.body.data).toBeNull();
    expect((await api.get('/webhooks').expect(200)).body.data).toEqual([]);
    await remove(mine.apiKey).expect(404);
    const bad = await remove(mine.apiKey, 'abc').expect(400);
    expect(errorFields(bad.body)).toEqual(['webhookId']);
  });
});
