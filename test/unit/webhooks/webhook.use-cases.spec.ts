import { NotFoundError, ValidationError } from '../../../src/shared/domain/domain-error';
import { DeleteWebhookUseCase } from '../../../src/webhooks/application/delete-webhook.use-case';
import {
  DELIVERIES_LISTED,
  ListDeliveriesUseCase,
} from '../../../src/webhooks/application/list-deliveries.use-case';
import { ListWebhooksUseCase } from '../../../src/webhooks/application/list-webhooks.use-case';
import { RegisterWebhookUseCase } from '../../../src/webhooks/application/register-webhook.use-case';
import { ReplayDeliveryUseCase } from '../../../src/webhooks/application/replay-delivery.use-case';
import { inMemoryAdapters } from '../../support/in-memory';

function webhooksSetup(env: Record<string, string> = {}) {
  const a = inMemoryAdapters(env);
  return {
    ...a,
    register: new RegisterWebhookUseCase(a.uow, a.webhookEndpoints, a.destinationGuard, a.clock, a.config),
    list: new ListWebhooksUseCase(a.uow, a.webhookEndpoints),
    remove: new DeleteWebhookUseCase(a.uow, a.webhookEndpoints, a.clock),
    deliveries: new ListDeliveriesUseCase(a.uow, a.webhookEndpoints, a.webhookDeliveries),
    replay: new ReplayDeliveryUseCase(a.uow, a.webhookEndpoints, a.webhookDeliveries, a.clock),
    /** An event of the vendor published as a use case publishes it (X17). */
    publish(vendorId: number) {
      return a.uow.run(() => a.domainEvents.publish(reinvited(vendorId)));
    },
  };
}

// the data is the publishing module's (partners renders it); this module only carries it
const reinvited = (vendorId: number) => ({
  type: 'partner.reinvited',
  vendorId,
  data: { id: 1, emailAddress: 'a@x.test' },
});

const url = 'https://hooks.example.com/in';

describe('RegisterWebhookUseCase (X16)', () => {
  it('stores the endpoint with a whsec_ secret, the events given once each, in their order', async () => {
    const t = webhooksSetup();
    const endpoint = await t.register.execute(1, {
      url,
      events: ['lead.approved', 'lead.created', 'lead.approved'],
      description: 'CRM',
    });
    expect(endpoint).toEqual({
      id: expect.any(Number),
      vendorId: 1,
      url,
      events: ['lead.approved', 'lead.created'],
      description: 'CRM',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{32,}$/),
      createdAt: t.clock.now(),
      disabledAt: null,
    });
    expect(await t.list.execute(1)).toEqual([endpoint]);
  });

  it("'*' subscribes to everything and stands alone", async () => {
    const t = webhooksSetup();
    expect(
      (await t.register.execute(1, { url, events: ['lead.created', '*'], description: null })).events,
    ).toEqual(['*']);
  });

  it('refuses a url that is not http(s), or whose host the guard refuses, naming url; nothing stored', async () => {
    const t = webhooksSetup();
    await expect(
      t.register.execute(1, { url: 'ftp://x.test/', events: ['*'], description: null }),
    ).rejects.toEqual(ValidationError.of('url', 'must be an http or https URL'));
    t.destinationGuard.refused.set(url, 'must not point to a loopback, private or link-local address');
    await expect(t.register.execute(1, { url, events: ['*'], description: null })).rejects.toEqual(
      ValidationError.of('url', 'must not point to a loopback, private or link-local address'),
    );
    expect(t.webhookTables.endpoints.size).toBe(0);
  });

  it('asks no guard with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true', async () => {
    const t = webhooksSetup({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    t.destinationGuard.refused.set('http://127.0.0.1:9/x', 'loopback');
    await t.register.execute(1, { url: 'http://127.0.0.1:9/x', events: ['*'], description: null });
    expect(t.destinationGuard.checked).toEqual([]);
  });
});

describe('DeleteWebhookUseCase (X16)', () => {
  it('removes the endpoint: no longer listed nor delivered to, its pending deliveries FAILED', async () => {
    const t = webhooksSetup();
    const endpoint = await t.register.execute(1, { url, events: ['*'], description: null });
    await t.publish(1);
    await t.remove.execute(1, endpoint.id);
    expect(await t.list.execute(1)).toEqual([]);
    expect(t.webhookTables.deliveries.all().map((d) => d.status)).toEqual(['FAILED']);
    await t.publish(1);
    expect(t.webhookTables.deliveries.size).toBe(1);
  });

  it("is not found for another vendor's endpoint, which stays", async () => {
    const t = webhooksSetup();
    const endpoint = await t.register.execute(1, { url, events: ['*'], description: null });
    await expect(t.remove.execute(2, endpoint.id)).rejects.toEqual(new NotFoundError('Webhook'));
    expect(await t.list.execute(1)).toHaveLength(1);
  });
});

describe('DomainEvents, implemented by webhooks (X17)', () => {
  it('writes one delivery per subscribed endpoint of the vendor, none for others', async () => {
    const t = webhooksSetup();
    const all = await t.register.execute(1, { url, events: ['*'], description: null });
    await t.register.execute(1, { url, events: ['lead.created'], description: null });
    await t.register.execute(2, { url, events: ['*'], description: null });
    await t.publish(1);
    expect(t.webhookTables.deliveries.all().map((d) => d.endpointId)).toEqual([all.id]);
  });

  it('refuses to write outside a transaction, and a rollback takes the event with it', async () => {
    const t = webhooksSetup();
    await t.register.execute(1, { url, events: ['*'], description: null });
    await expect(t.domainEvents.publish(reinvited(1))).rejects.toThrow('inside UnitOfWork.run');
    t.uow.failNextCommit();
    await expect(t.publish(1)).rejects.toThrow();
    expect([t.webhookTables.events.size, t.webhookTables.deliveries.size]).toEqual([0, 0]);
  });

  it('sends the data as published, and refuses a type that is no webhook event, rolling the change back', async () => {
    const t = webhooksSetup();
    await t.register.execute(1, { url, events: ['*'], description: null });
    await t.publish(1);
    expect(t.webhookTables.eventsOf(1).map((e) => e.body.data)).toEqual([reinvited(1).data]);
    await expect(
      t.uow.run(() => t.domainEvents.publish({ ...reinvited(1), type: 'partner.reinvitd' })),
    ).rejects.toThrow("'partner.reinvitd' is not a webhook event type (X17)");
    expect(t.webhookTables.events.size).toBe(1);
  });
});

describe('ListDeliveriesUseCase and ReplayDeliveryUseCase (X19)', () => {
  it(`lists the latest ${DELIVERIES_LISTED} deliveries, newest first`, async () => {
    const t = webhooksSetup();
    const endpoint = await t.register.execute(1, { url, events: ['*'], description: null });
    for (let i = 0; i < DELIVERIES_LISTED + 2; i++) await t.publish(1);
    const listed = await t.deliveries.execute(1, endpoint.id);
    expect(listed).toHaveLength(DELIVERIES_LISTED);
    const ids = t.webhookTables.deliveries.all().map((d) => d.id);
    expect(listed.map((d) => d.id)).toEqual(ids.reverse().slice(0, DELIVERIES_LISTED));
    expect(listed[0]).toMatchObject({ type: 'partner.reinvited', status: 'PENDING', attempts: 0 });
  });

  it('replays a delivery as a new PENDING delivery of the same event id', async () => {
    const t = webhooksSetup();
    const endpoint = await t.register.execute(1, { url, events: ['*'], description: null });
    await t.publish(1);
    const [original] = await t.deliveries.execute(1, endpoint.id);
    const now = t.clock.advance(1_000);
    const replayed = await t.replay.execute(1, endpoint.id, original!.id);
    expect(replayed).toEqual({ ...original, id: expect.any(Number), nextAttemptAt: now });
    expect(replayed.id).not.toBe(original!.id);
    expect((await t.deliveries.execute(1, endpoint.id)).map((d) => d.id)).toEqual([
      replayed.id,
      original!.id,
    ]);
  });

  it("is not found for another vendor's endpoint, and for a delivery of another endpoint", async () => {
    const t = webhooksSetup();
    const first = await t.register.execute(1, { url, events: ['*'], description: null });
    const second = await t.register.execute(1, { url, events: ['*'], description: null });
    await t.publish(1);
    const [delivery] = await t.deliveries.execute(1, first.id);
    await expect(t.deliveries.execute(2, first.id)).rejects.toEqual(new NotFoundError('Webhook'));
    await expect(t.replay.execute(2, first.id, delivery!.id)).rejects.toEqual(new NotFoundError('Webhook'));
    const [secondsOwn] = await t.deliveries.execute(1, second.id);
    await expect(t.replay.execute(1, first.id, secondsOwn!.id)).rejects.toEqual(
      new NotFoundError('Delivery'),
    );
  });
});
