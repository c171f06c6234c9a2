import { MailDispatcher } from '../../src/mail/application/mail-dispatcher';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { MailSender } from '../../src/mail/application/mail-sender';
import { OutboxStore } from '../../src/mail/application/outbox-store';
import { SmtpMailSender } from '../../src/mail/infrastructure/smtp-mail-sender';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { Clock } from '../../src/shared/domain/clock';
import { RecordingMailSender } from '../support/mail-fakes';
import { fastDispatcher, outboxRows, settleOutbox } from '../support/mail-outbox';
import { invitePartner, PartnerMother, SettableClock } from '../support/partner-mother';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';
import { SmtpCapture } from '../support/smtp-capture';
import { createTestApp, createVendor, TestApp } from '../support/test-app';

/**
 * D35/D36 across process lifetimes: two app instances on one database (a SQLite file or a MySQL
 * database of its own), the first stopped or "crashed" with messages claimed, the second delivering
 * them, each exactly once.
 */
describe('Mail dispatcher across restarts (D35, D36, D41)', () => {
  let smtp: SmtpCapture;
  let db: ScratchDatabase;
  const apps: TestApp[] = [];

  const start = async (
    options: { settings?: MailDispatcherSettings; sender?: MailSender; clock?: Clock } = {},
  ) => {
    const app = await createTestApp({
      env: { SMTP_URL: smtp.url, DATABASE_URL: db.url },
      override: (b) => {
        let builder = b
          .overrideProvider(MailDispatcherSettings)
          .useValue(options.settings ?? fastDispatcher());
        if (options.sender) builder = builder.overrideProvider(MailSender).useValue(options.sender);
        if (options.clock) builder = builder.overrideProvider(Clock).useValue(options.clock);
        return builder;
      },
    });
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    smtp = await SmtpCapture.start();
    db = await createScratchDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await smtp.stop();
    await db.drop();
  });

  it('an instance that died holding a lease loses nothing: another delivers once the lease has expired', async () => {
    const first = await start({ settings: fastDispatcher({ autoStart: false }) });
    const { apiKey } = await createVendor(first.app);
    const users = [PartnerMother.user(), PartnerMother.user()];
    await invitePartner(first.http, apiKey, PartnerMother.invite({ users }));
    const emails = users.map((u) => u.emailAddress);
    // the first instance claims the messages and "crashes" before sending them
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + 60_000);
    const claimed = await first.app
      .get(UnitOfWork)
      .run(() => first.app.get(OutboxStore).claimDue(now, 100, leaseUntil, 'crashed-instance'));
    expect(claimed.map((c) => c.to.toLowerCase())).toEqual(
      expect.arrayContaining(emails.map((e) => e.toLowerCase())),
    );
    await first.close();

    const clock = new SettableClock();
    const second = await start({ settings: fastDispatcher({ autoStart: false }), clock });
    clock.pin(new Date(leaseUntil.getTime() - 1_000).toISOString());
    expect((await second.app.get(MailDispatcher).dispatchDue()).claimed).toBe(0); // lease still live
    expect(emails.map((e) => smtp.to(e).length)).toEqual([0, 0]);
    clock.pin(new Date(leaseUntil.getTime() + 1).toISOString());
    await settleOutbox(second.app, emails);
    expect(emails.map((e) => smtp.to(e).length)).toEqual([1, 1]);
    expect((await outboxRows(second.app, emails)).map((r) => r.status)).toEqual(['SENT', 'SENT']);
    await second.close();
  });

  it('an instance stopped in the middle of a batch finishes the message in hand and the next one sends the rest, once each', async () => {
    const gated = new RecordingMailSender(new SmtpMailSender(smtp.url));
    const first = await start({ settings: fastDispatcher({ autoStart: false }), sender: gated });
    const { apiKey } = await createVendor(first.app);
    const users = [PartnerMother.user(), PartnerMother.user(), PartnerMother.user()];
    await invitePartner(first.http, apiKey, PartnerMother.invite({ users }));
    const emails = users.map((u) => u.emailAddress);

    const inHand = gated.holdNext();
    const round = first.app.get(MailDispatcher).dispatchDue();
    await inHand;
    const closing = first.close(); // D41: the dispatcher stops after the message in hand
    gated.releaseHeld();
    const result = await round;
    await closing;
    expect(result.sent).toBe(1);
    expect(result.released).toBe(result.claimed - 1);
    expect(emails.map((e) => smtp.to(e).length).reduce((a, b) => a + b)).toBe(1);

    const second = await start();
    await settleOutbox(second.app, emails);
    expect(emails.map((e) => smtp.to(e).length)).toEqual([1, 1, 1]);
    await second.close();
  });
});
