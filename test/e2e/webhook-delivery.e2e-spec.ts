import { TestingModuleBuilder } from '@nestjs/testing';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import request from 'supertest';
import { ManagementServer } from '../../src/shared/management/management-server';
import { openApiDocument } from '../../src/shared/management/openapi';
import { Webhook } from 'standardwebhooks';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { Clock } from '../../src/shared/domain/clock';
import { WebhookDispatcher } from '../../src/webhooks/application/webhook-dispatcher';
import { WebhookDispatcherSettings } from '../../src/webhooks/application/webhook-dispatcher.settings';
import { WebhookDeliveryOrmEntity } from '../../src/webhooks/infrastructure/webhook-delivery.orm-entity';
import { WebhookEndpointOrmEntity } from '../../src/webhooks/infrastructure/webhook-endpoint.orm-entity';
import { createLead, invitePartner, leadBody, vendorApi, VendorApi } from '../support/lead-fixtures';
import { SettableClock } from '../support/partner-mother';
import { TestApp, createTestApp, createVendor, unique } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Delivery {
  id: number;
  eventId: string;
  type: string;
  status: string;
  attempts: number;
  lastResponseStatus: number | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

/** X17-X19 through HTTP, with real receivers on localhost and the delivery worker driven round by round. */
describe('Webhook events and deliveries (X17, X18, X19)', () => {
  let t: TestApp;
  const clock = new SettableClock();
  const receiver = new WebhookReceiver();
  let url: string;

  beforeAll(async () => {
    url = await receiver.start();
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '1000' },
      override: (b: TestingModuleBuilder) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(new MailDispatcherSettings({ autoStart: false }))
          .overrideProvider(WebhookDispatcherSettings)
          .useValue(new WebhookDispatcherSettings({ autoStart: false }))
          .overrideProvider(Clock)
          .useValue(clock),
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  afterEach(() => {
    clock.release();
    receiver.clear();
    receiver.statuses = [];
  });

  /** Runs delivery rounds until one claims nothing. */
  async function deliverAll(): Promise<void> {
    const dispatcher = t.app.get(WebhookDispatcher);
    while ((await dispatcher.dispatchDue()).claimed > 0) {
      /* next round */
    }
  }

  async function setup(events: string[] = ['*']) {
    const { apiKey } = await createVendor(t.app);
    const api = vendorApi(t.http, apiKey);
    const hook = (await api.post('/webhooks').send({ url, events }).expect(200)).body.data as {
      id: number;
      secret: string;
    };
    return { apiKey, api, hook };
  }

  async function deliveries(api: VendorApi, hookId: number): Promise<Delivery[]> {
    return (await api.get(`/webhooks/${hookId}/deliveries`).expect(200)).body.data as Delivery[];
  }

  it('sends one signed event per change, none for a change of nothing or a failed request', async () => {
    const { apiKey, api, hook } = await setup();
    const partnerId = await invitePartner(t.http, apiKey);
    const lead = await createLead(t.http, apiKey, partnerId);
    await api.patch(`/leads/${lead.id}`).send({ firstName: 'Ada' }).expect(200); // nothing changed (D34)
    await api.patch(`/leads/${lead.id}`).send({ firstName: 'Grace', city: 'Arlington' }).expect(200);
    await api.patch(`/leads/${lead.id}`).send({ firstName: '' }).expect(400); // failed: nothing
    const approved = await api.put(`/leads/${lead.id}/approve`).send({}).expect(200);
    await api.put(`/leads/${lead.id}/approve`).send({}).expect(200); // retry: nothing (D32)
    await api.put(`/leads/${lead.id}/reject`).send({}).expect(409); // failed: nothing
    await api.put(`/leads/${lead.id}/archive`).send({}).expect(200);
    await api.put(`/leads/${lead.id}/archive`).send({}).expect(200); // nothing changed
    const emailAddress = `${unique('u')}@p.test`;
    await api
      .post(`/partners/${partnerId}/users`)
      .send({ users: [{ firstName: 'U', emailAddress }] })
      .expect(200);
    await api.post(`/partners/${partnerId}/reinvite`).send({ emailAddress }).expect(200);

    await deliverAll();
    const written = [
      'partner.invited',
      'lead.created',
      'lead.updated',
      'lead.approved',
      'lead.archived',
      'partner.users_invited',
      'partner.reinvited',
    ];
    // one of each; several are sent at once, so they may arrive in any order (docs/webhooks.md)
    expect([...receiver.types()].sort()).toEqual([...written].sort());
    const byType = Object.fromEntries(receiver.received.map((r) => [r.json.type, r.json]));
    expect(byType['lead.created'].data).toMatchObject({
      id: lead.id,
      firstName: 'Ada',
      emailAddress: lead.emailAddress,
    });
    expect(byType['lead.updated'].data).toMatchObject({
      firstName: 'Grace',
      changedFields: ['firstName', 'city'],
    });
    expect(byType['lead.approved'].data).toMatchObject({
      id: lead.id,
      approvalStatus: 'APPROVED',
      contactId: approved.body.data.contactId,
    });
    expect(byType['lead.archived'].data).toMatchObject({ id: lead.id, archived: true });
    expect(byType['partner.invited'].data).toMatchObject({ id: partnerId });

    // Standard Webhooks, checked with the reference library rather than the service's own code
    const verifier = new Webhook(hook.secret);
    for (const r of receiver.received) {
      expect(r.headers['webhook-id']).toBe(r.json.id);
      expect(r.json.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,/);
      expect(() => verifier.verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    }
    const list = await deliveries(api, hook.id);
    expect(list).toHaveLength(7);
    expect(list.map((d) => d.type)).toEqual([...written].reverse()); // newest first
    expect(
      list.every((d) => d.status === 'DELIVERED' && d.attempts === 1 && d.lastResponseStatus === 200),
    ).toBe(true);
    expect(list[0].nextAttemptAt).toBeNull();
  });

  it('sends nothing again for a replayed Idempotency-Key (X3)', async () => {
    const { apiKey, api } = await setup();
    const partnerId = await invitePartner(t.http, apiKey);
    await deliverAll();
    receiver.clear();
    const body = leadBody();
    const key = unique('idem');
    await api.post(`/partners/${partnerId}/leads`).set('Idempotency-Key', key).send(body).expect(200);
    const replay = await api
      .post(`/partners/${partnerId}/leads`)
      .set('Idempotency-Key', key)
      .send(body)
      .expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    await deliverAll();
    expect(receiver.types()).toEqual(['lead.created']);
  });

  it('has 8 attempts in flight at once in a process, no more, and delivers every one (X18)', async () => {
    const { apiKey, api, hook } = await setup(['lead.created']);
    const partnerId = await invitePartner(t.http, apiKey);
    for (let i = 0; i < 12; i++) await createLead(t.http, apiKey, partnerId);
    const gate = receiver.holdAll();
    const round = t.app.get(WebhookDispatcher).dispatchDue();

    // the first 8 are all on the wire together, unanswered: one attempt at a time would stop at 1
    await gate.arrived(8);
    // the 9th waits for a free lane: nothing more arrives while the 8 are held
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gate.held()).toBe(8);
    gate.release();

    expect(await round).toMatchObject({ claimed: 12, delivered: 12, released: 0 });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(12);
    const list = await deliveries(api, hook.id);
    expect(list.map((d) => [d.status, d.attempts])).toEqual(Array(12).fill(['DELIVERED', 1]));
  });

  it('sends only the subscribed types, and nothing to another vendor', async () => {
    const { apiKey, api } = await setup(['lead.approved']);
    const other = await setup(['*']);
    const partnerId = await invitePartner(t.http, apiKey);
    const lead = await createLead(t.http, apiKey, partnerId);
    await api.put(`/leads/${lead.id}/approve`).send({}).expect(200);
    await deliverAll();
    expect(receiver.types()).toEqual(['lead.approved']);
    expect(await deliveries(other.api, other.hook.id)).toEqual([]);
  });

  it('retries a failed attempt with the same webhook-id, and gives up after the last', async () => {
    const { apiKey, api, hook } = await setup(['lead.created']);
    const partnerId = await invitePartner(t.http, apiKey);
    clock.pin('2030-01-01T00:00:00.000Z');
    receiver.statuses = [500, 503];
    await createLead(t.http, apiKey, partnerId);
    await deliverAll();
    let [delivery] = await deliveries(api, hook.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1, lastResponseStatus: 500 });
    expect(delivery.nextAttemptAt).toBe('2030-01-01T00:00:01.000Z'); // base 1 s (WEBHOOK_RETRY_BASE_MS)
    clock.pin('2030-01-01T00:00:01.000Z');
    await deliverAll();
    clock.pin('2030-01-01T00:00:03.000Z');
    await deliverAll();
    [delivery] = await deliveries(api, hook.id);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 3, lastResponseStatus: 200 });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received).toHaveLength(3);

    // a redirect is not followed (it would reach a destination the SSRF guard never saw): a failed attempt
    receiver.clear();
    receiver.statuses = [302];
    await createLead(t.http, apiKey, partnerId);
    await deliverAll();
    [delivery] = await deliveries(api, hook.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attempts: 1, lastResponseStatus: 302 });
    expect(receiver.received).toHaveLength(1);
    clock.pin('2030-01-01T00:00:05.000Z');
    await deliverAll();

    // a receiver that never answers 2xx: FAILED after the 15th attempt
    receiver.clear();
    receiver.statuses = Array<number>(20).fill(500);
    await createLead(t.http, apiKey, partnerId);
    for (let day = 1; day <= 20; day++) {
      clock.pin(new Date(Date.UTC(2030, 0, 1 + day)).toISOString());
      await deliverAll();
    }
    [delivery] = await deliveries(api, hook.id);
    expect(delivery).toMatchObject({
      status: 'FAILED',
      attempts: 15,
      lastResponseStatus: 500,
      nextAttemptAt: null,
    });
    expect(receiver.received).toHaveLength(15);
  });

  it('replays a delivery with the same webhook-id', async () => {
    const { apiKey, api, hook } = await setup(['lead.created']);
    const partnerId = await invitePartner(t.http, apiKey);
    await createLead(t.http, apiKey, partnerId);
    await deliverAll();
    const [first] = await deliveries(api, hook.id);
    const replayed = await api.post(`/webhooks/${hook.id}/deliveries/${first.id}/replay`).expect(200);
    expect(replayed.body.data).toMatchObject({
      eventId: first.eventId,
      type: 'lead.created',
      status: 'PENDING',
      attempts: 0,
    });
    await deliverAll();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([first.eventId, first.eventId]);
    expect(receiver.received[0].body).toBe(receiver.received[1].body);
    const other = await setup();
    await vendorApi(t.http, other.apiKey)
      .post(`/webhooks/${hook.id}/deliveries/${first.id}/replay`)
      .expect(404);
    await api.post(`/webhooks/${hook.id}/deliveries/999999999/replay`).expect(404);
    await vendorApi(t.http, other.apiKey).get(`/webhooks/${hook.id}/deliveries`).expect(404);
  });

  it('delivers nothing more to a deleted endpoint', async () => {
    const { apiKey, hook } = await setup(['lead.created']);
    const partnerId = await invitePartner(t.http, apiKey);
    await createLead(t.http, apiKey, partnerId);
    await t.http.delete(`/api/v1/vendors/webhooks/${hook.id}`).set('X-API-KEY', apiKey).expect(200);
    await createLead(t.http, apiKey, partnerId);
    await deliverAll();
    expect(receiver.received).toEqual([]);
  });

  /** The stored row of the endpoint's only delivery, read from the database. */
  async function storedDelivery(hookId: number) {
    const txHost = t.app.get<TransactionHost<TransactionalAdapterTypeOrm>>(TransactionHost);
    const row = await t.app
      .get(UnitOfWork)
      .read(() => txHost.tx.getRepository(WebhookDeliveryOrmEntity).findOneBy({ endpointId: hookId }));
    return {
      status: row!.status,
      attempts: Number(row!.attempts),
      lastError: row!.lastError,
      nextAttemptAt: row!.nextAttemptAt,
    };
  }

  it('sends nothing for a delivery queued after its endpoint was deleted (a change committed alongside the DELETE)', async () => {
    const { apiKey, hook } = await setup(['lead.created']);
    const partnerId = await invitePartner(t.http, apiKey);
    await createLead(t.http, apiKey, partnerId);
    // What MySQL/MariaDB can leave when a lead change and the DELETE commit at the same moment: the
    // endpoint deleted, and a PENDING delivery the DELETE did not see.
    const txHost = t.app.get<TransactionHost<TransactionalAdapterTypeOrm>>(TransactionHost);
    await t.app
      .get(UnitOfWork)
      .run(() =>
        txHost.tx
          .getRepository(WebhookEndpointOrmEntity)
          .update({ id: hook.id }, { disabledAt: () => 'created_at' }),
      );
    const round = await t.app.get(WebhookDispatcher).dispatchDue();
    expect(round).toMatchObject({ claimed: 1, cancelled: 1, delivered: 0 });
    expect(receiver.received).toEqual([]);
    expect(await storedDelivery(hook.id)).toMatchObject({
      status: 'FAILED',
      attempts: 0,
      lastError: 'endpoint deleted',
      nextAttemptAt: null,
    });
  });

  it.each([
    [200, 'a success'],
    [500, 'a failure'],
  ])(
    'leaves a delivery FAILED "endpoint deleted" when the DELETE commits during its POST (%s: %s)',
    async (status) => {
      const { apiKey, hook } = await setup(['lead.created']);
      const partnerId = await invitePartner(t.http, apiKey);
      await createLead(t.http, apiKey, partnerId);
      receiver.statuses = [status];
      const held = receiver.holdNext();
      const round = t.app.get(WebhookDispatcher).dispatchDue();
      await held.arrived;
      await t.http.delete(`/api/v1/vendors/webhooks/${hook.id}`).set('X-API-KEY', apiKey).expect(200);
      held.release();
      expect(await round).toMatchObject({ claimed: 1, cancelled: 1, delivered: 0, retried: 0 });
      expect(receiver.received).toHaveLength(1);
      const stored = await storedDelivery(hook.id);
      expect(stored).toMatchObject({ status: 'FAILED', attempts: 0, lastError: 'endpoint deleted' });
      expect(stored.nextAttemptAt).toBeNull();
      clock.pin(new Date(Date.now() + 86_400_000).toISOString()); // long past any retry: nothing is due
      await deliverAll();
      expect(receiver.received).toHaveLength(1);
    },
  );

  it('reports attempts by outcome, the queue depth and the oldest pending age on the management port', async () => {
    const port = await t.app.get(ManagementServer).start(0, '127.0.0.1', openApiDocument(t.app));
    const scrape = async () => (await request(`http://127.0.0.1:${port}`).get('/metrics').expect(200)).text;
    const value = (text: string, series: string) =>
      Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    const { apiKey } = await setup(['lead.created']);
    const partnerId = await invitePartner(t.http, apiKey);
    clock.pin('2031-01-01T00:00:00.000Z');
    await createLead(t.http, apiKey, partnerId);
    clock.pin('2031-01-01T00:01:00.000Z');
    let text = await scrape();
    expect(value(text, 'webhook_deliveries_pending')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'webhook_oldest_pending_delivery_age_seconds')).toBeGreaterThanOrEqual(60);
    const delivered = value(text, 'webhook_delivery_attempts_total{outcome="delivered"}');
    await deliverAll();
    text = await scrape();
    expect(value(text, 'webhook_delivery_attempts_total{outcome="delivered"}')).toBe(delivered + 1);
    expect(value(text, 'webhook_deliveries_pending')).toBe(0);
  });
});

/**
 * The running loop rather than rounds driven by hand: its own application, since a worker that has
 * been stopped runs no further round.
 */
describe('Webhook delivery loop (X18)', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();
  let url: string;

  beforeAll(async () => {
    url = await receiver.start();
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
      override: (b: TestingModuleBuilder) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(new MailDispatcherSettings({ autoStart: false }))
          .overrideProvider(WebhookDispatcherSettings)
          .useValue(new WebhookDispatcherSettings({ autoStart: false, pollIntervalMs: 100 })),
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function subscribed() {
    const { apiKey } = await createVendor(t.app);
    const api = vendorApi(t.http, apiKey);
    const hook = (
      await api
        .post('/webhooks')
        .send({ url, events: ['lead.created'] })
        .expect(200)
    ).body.data as { id: number };
    return { apiKey, api, hook };
  }

  async function list(v: { api: VendorApi; hook: { id: number } }): Promise<Delivery[]> {
    return (await v.api.get(`/webhooks/${v.hook.id}/deliveries`).expect(200)).body.data as Delivery[];
  }

  it('keeps sending on the other lanes while a receiver does not answer (the running loop, X18)', async () => {
    const slow = await subscribed();
    const fast = await subscribed();
    const slowPartner = await invitePartner(t.http, slow.apiKey);
    const fastPartner = await invitePartner(t.http, fast.apiKey);
    const dispatcher = t.app.get(WebhookDispatcher);
    const held = receiver.holdNext();
    await createLead(t.http, slow.apiKey, slowPartner);
    dispatcher.start();
    try {
      await held.arrived; // the slow vendor's attempt is on the wire, unanswered
      for (let i = 0; i < 10; i++) await createLead(t.http, fast.apiKey, fastPartner);
      // all 10 arrive while the first is still held: nothing waits for it
      for (let waited = 0; receiver.received.length < 11 && waited < 8_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(receiver.received).toHaveLength(11);
      const fastList = await list(fast);
      expect(fastList.map((d) => d.status)).toEqual(Array(10).fill('DELIVERED'));
      expect((await list(slow)).map((d) => [d.status, d.attempts])).toEqual([['PENDING', 0]]);
      // answered at last, the held attempt is recorded by its lane like any other
      held.release();
      let slowStatus: string | undefined;
      for (let waited = 0; slowStatus !== 'DELIVERED' && waited < 8_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        slowStatus = (await list(slow))[0]?.status;
      }
      expect(slowStatus).toBe('DELIVERED');
    } finally {
      held.release();
      await dispatcher.stop();
    }
  });
});
