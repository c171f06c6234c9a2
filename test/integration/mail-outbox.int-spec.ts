import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { Outbox } from '../../src/mail/application/outbox';
import { OutboxStore } from '../../src/mail/application/outbox-store';
import { MailModule } from '../../src/mail/mail.module';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';
import { createTestContext, unique } from '../support/test-app';

/** TypeOrmOutbox / TypeOrmOutboxStore on the engine under test, in a database of their own. */
describe('Mail outbox adapter', () => {
  let db: ScratchDatabase;
  let context: TestingModule;
  let uow: UnitOfWork;
  let outbox: Outbox;
  let store: OutboxStore;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createScratchDatabase();
    context = await createTestContext([MailModule], {
      env: { DATABASE_URL: db.url },
      override: (b) =>
        b.overrideProvider(MailDispatcherSettings).useValue(new MailDispatcherSettings({ autoStart: false })),
    });
    uow = context.get(UnitOfWork);
    outbox = context.get(Outbox);
    store = context.get(OutboxStore);
    dataSource = context.get(DataSource);
  });
  afterAll(async () => {
    await context.close();
    await db.drop();
  });

  // Every test leaves nothing due behind, so claims only ever see the test's own messages.
  afterEach(async () => {
    await dataSource.query(`UPDATE mail_outbox SET status = 'SENT' WHERE status = 'PENDING'`);
  });

  const message = (to = `${unique('m')}@x.test`) => ({
    to,
    subject: 'Subject',
    text: 'Text',
    html: '<p>Html</p>',
  });
  const enqueue = (count: number) =>
    uow.run(async () => {
      const messages = Array.from({ length: count }, () => message());
      for (const m of messages) await outbox.enqueue(m);
      return messages.map((m) => m.to);
    });
  const inAMinute = () => new Date(Date.now() + 60_000);
  const claim = (limit: number, token: string, now = inAMinute(), leaseMs = 60_000) =>
    uow.run(() => store.claimDue(now, limit, new Date(now.getTime() + leaseMs), token));
  const row = async (id: number) =>
    (
      (await dataSource.query('SELECT * FROM mail_outbox WHERE id = ?', [id])) as Record<string, unknown>[]
    )[0]!;

  it('refuses to queue outside a transaction (D35: it could go out for a change that is rolled back)', async () => {
    await expect(outbox.enqueue(message())).rejects.toThrow(/inside UnitOfWork.run/);
  });

  it('discards the message when the transaction rolls back', async () => {
    const to = `${unique('rollback')}@x.test`;
    await expect(
      uow.run(async () => {
        await outbox.enqueue(message(to));
        throw new Error('the use case failed');
      }),
    ).rejects.toThrow('the use case failed');
    const rows: unknown[] = await dataSource.query('SELECT id FROM mail_outbox WHERE recipient = ?', [to]);
    expect(rows).toEqual([]);
  });

  it('claims due messages under a lease that keeps every other claim away until it expires or is released', async () => {
    const recipients = await enqueue(3);
    const first = await claim(10, 'lease-a');
    expect(first.map((m) => m.to)).toEqual(recipients);
    expect(first[0]).toMatchObject({ subject: 'Subject', text: 'Text', html: '<p>Html</p>', attempts: 0 });
    expect(await claim(10, 'lease-b')).toEqual([]);
    // released messages are claimable at once
    await uow.run(() => store.release([first[0]!.id], 'lease-a'));
    expect((await claim(10, 'lease-c')).map((m) => m.id)).toEqual([first[0]!.id]);
    // release with someone else's token changes nothing
    await uow.run(() => store.release([first[1]!.id], 'not-mine'));
    expect(await claim(10, 'lease-d')).toEqual([]);
    // an expired lease is taken over
    const afterLease = new Date(inAMinute().getTime() + 120_000);
    expect((await claim(10, 'lease-e', afterLease)).map((m) => m.id).sort()).toEqual(
      first.map((m) => m.id).sort(),
    );
  });

  it('does not claim a message before its next attempt, and respects the batch size', async () => {
    await enqueue(3);
    const [a] = await claim(1, 'batch-1');
    expect(a).toBeDefined();
    const retryAt = new Date(Date.now() + 10 * 60_000);
    await uow.run(() => store.markRetry(a!.id, 1, retryAt, 'connection refused'));
    expect(await row(a!.id)).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      last_error: 'connection refused',
      lease_token: null,
    });
    const rest = await claim(10, 'batch-2');
    expect(rest).toHaveLength(2);
    expect(rest.map((m) => m.id)).not.toContain(a!.id);
    for (const m of rest) await uow.run(() => store.markSent(m.id, new Date()));
    const later = await claim(10, 'batch-3', new Date(retryAt.getTime() + 1), 1);
    expect(later.map((m) => m.id)).toEqual([a!.id]);
    expect(later[0]!.attempts).toBe(1);
  });

  it('erases the bodies once a message is sent or failed (they may carry a one-time link)', async () => {
    await enqueue(2);
    const [sent, failed] = await claim(10, 'final');
    await uow.run(() => store.markSent(sent!.id, new Date()));
    await uow.run(() => store.markFailed(failed!.id, 10, new Date(), 'gave up'));
    expect(await row(sent!.id)).toMatchObject({
      status: 'SENT',
      text_body: null,
      html_body: null,
      lease_token: null,
    });
    expect(await row(failed!.id)).toMatchObject({
      status: 'FAILED',
      attempts: 10,
      last_error: 'gave up',
      text_body: null,
      html_body: null,
    });
    expect(await claim(10, 'after-final', new Date(Date.now() + 10 * 60_000))).toEqual([]);
  });

  it('never hands one message to two concurrent claims (MySQL: FOR UPDATE SKIP LOCKED; SQLite: one statement)', async () => {
    const recipients = await enqueue(12);
    const now = inAMinute();
    const batches = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(3, `concurrent-${i}`, now)));
    const ids = batches.flat().map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    // whatever a claim skipped is still there for the next one
    const rest = await claim(100, 'concurrent-rest', now);
    expect([...batches.flat(), ...rest].map((m) => m.to).sort()).toEqual([...recipients].sort());
  });
});
