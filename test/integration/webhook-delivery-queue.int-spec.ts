import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { DeliveryQueue } from '../../src/webhooks/application/delivery-queue';
import { WebhookEndpoints } from '../../src/webhooks/application/webhook-endpoints';
import { DomainEvents } from '../../src/shared/application/domain-events';
import { WebhookDispatcherSettings } from '../../src/webhooks/application/webhook-dispatcher.settings';
import { WebhookDeliveryOrmEntity } from '../../src/webhooks/infrastructure/webhook-delivery.orm-entity';
import { WebhookEventOrmEntity } from '../../src/webhooks/infrastructure/webhook-event.orm-entity';
import { CreateVendorUseCase } from '../../src/vendors/application/create-vendor.use-case';
import { VendorsModule } from '../../src/vendors/vendors.module';
import { WebhooksModule } from '../../src/webhooks/webhooks.module';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';
import { createTestContext, unique } from '../support/test-app';

/** TypeOrmDeliveryQueue (X18) on the engine under test, in a database of its own. */
describe('Webhook delivery queue adapter', () => {
  let db: ScratchDatabase;
  let context: TestingModule;
  let uow: UnitOfWork;
  let queue: DeliveryQueue;
  let dataSource: DataSource;
  let endpointId: number;
  let vendor: number;

  beforeAll(async () => {
    db = await createScratchDatabase();
    context = await createTestContext([WebhooksModule, VendorsModule], {
      env: { DATABASE_URL: db.url },
      override: (b) =>
        b
          .overrideProvider(WebhookDispatcherSettings)
          .useValue(new WebhookDispatcherSettings({ autoStart: false })),
    });
    uow = context.get(UnitOfWork);
    queue = context.get(DeliveryQueue);
    dataSource = context.get(DataSource);
    const vendorId = (await context.get(CreateVendorUseCase).execute(`Vendor ${unique()}`)).vendorId;
    vendor = vendorId;
    endpointId = (
      await uow.run(() =>
        context.get(WebhookEndpoints).add({
          vendorId,
          url: 'http://127.0.0.1:9/hook',
          events: ['*'],
          description: null,
          secret: 'whsec_AAAA',
          createdAt: new Date(),
          disabledAt: null,
        }),
      )
    ).id;
  });
  afterAll(async () => {
    await context.close();
    await db.drop();
  });

  async function queueDeliveries(count: number): Promise<void> {
    const now = new Date();
    for (let i = 0; i < count; i++) {
      const eventId = `evt_${unique().padEnd(32, '0').slice(0, 32)}`;
      const inserted = await dataSource.getRepository(WebhookEventOrmEntity).insert({
        eventId,
        vendorId: vendor,
        type: 'lead.created',
        payload: '{}',
        createdAt: now,
      });
      await dataSource.getRepository(WebhookDeliveryOrmEntity).insert({
        endpointId,
        eventRowId: Number((inserted.identifiers[0] as { id: number }).id),
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: now,
        lockedUntil: null,
        leaseToken: null,
        lastResponseStatus: null,
        lastAttemptAt: null,
        lastError: null,
        createdAt: now,
      });
    }
  }

  const claim = (limit: number, token: string, now: Date, leaseMs = 60_000) =>
    uow.run(() => queue.claimDue(now, limit, new Date(now.getTime() + leaseMs), token));

  it('never hands one delivery to two concurrent claims (MySQL: FOR UPDATE SKIP LOCKED; SQLite: one statement)', async () => {
    await queueDeliveries(12);
    const now = new Date(Date.now() + 60_000);
    const batches = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(3, `concurrent-${i}`, now)));
    const ids = batches.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rest = await claim(100, 'rest', now);
    expect(ids.length + rest.length).toBe(12);
    // leased: nothing more to claim until the lease ends; then every one comes back (at least once)
    expect(await claim(100, 'leased', now)).toEqual([]);
    const later = await claim(100, 'after-lease', new Date(now.getTime() + 61_000));
    expect(later).toHaveLength(12);
    expect(await uow.read(() => queue.stats())).toMatchObject({ pending: 12 });
    await dataSource.query(`UPDATE webhook_deliveries SET status = 'DELIVERED'`);
    expect(await uow.read(() => queue.stats())).toEqual({ pending: 0, oldestPendingAt: null });
  });

  it('writes an event only inside a transaction, and a rollback takes it back (X17)', async () => {
    const events = context.get(DomainEvents);
    const event = { type: 'partner.users_invited', vendorId: vendor, data: { partnerId: 1, users: [] } };
    const count = async () =>
      Number(((await dataSource.query(`SELECT COUNT(*) AS n FROM webhook_events`)) as { n: number }[])[0].n);
    const before = await count();
    await expect(events.publish(event)).rejects.toThrow(/inside UnitOfWork.run/);
    await expect(
      uow.run(async () => {
        await events.publish(event);
        throw new Error('the change fails after the event was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(await count()).toBe(before);
    await uow.run(() => events.publish(event));
    expect(await count()).toBe(before + 1);
  });
});
