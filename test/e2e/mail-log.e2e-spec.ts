import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { AppLogger } from '../../src/shared/logging.module';
import { CapturedLog } from '../support/captured-log';
import { fastDispatcher, outboxRows, settleOutbox } from '../support/mail-outbox';
import { PartnerMother, invitePartner } from '../support/partner-mother';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { TestApp, createTestApp, createVendor } from '../support/test-app';

/**
 * D35: with SMTP_URL unset (development), invite emails are written to the log instead of sent, and
 * the outbox row is done like a sent one: nothing is left pending. A database of its own, so that no
 * other test app's dispatcher takes these rows.
 */
describe('Invite emails with SMTP_URL unset (D35)', () => {
  let db: ScratchDatabase;
  let t: TestApp;
  const log = new CapturedLog();

  beforeAll(async () => {
    db = await createScratchDatabase();
    t = await createTestApp({
      env: { DATABASE_URL: db.url, SMTP_URL: '' }, // empty counts as unset (docs/configuration.md)
      override: (b) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(fastDispatcher({ autoStart: false }))
          .overrideProvider(AppLogger)
          .useValue(log.logger),
    });
    t.app.useLogger(t.app.get(AppLogger));
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('logs each invite email once, with its recipient and accept link, and leaves nothing pending', async () => {
    const { apiKey } = await createVendor(t.app);
    const user = PartnerMother.user({ firstName: 'Ann' });
    await invitePartner(t.http, apiKey, PartnerMother.invite({ users: [user] }));
    await settleOutbox(t.app, [user.emailAddress]);
    expect((await outboxRows(t.app, [user.emailAddress])).map((row) => row.status)).toEqual(['SENT']);
    const mails = log
      .lines<{ msg: string; to?: string; text?: string }>()
      .filter((line) => line.msg === 'email (SMTP_URL unset, not sent)');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(user.emailAddress);
    expect(mails[0]!.text).toMatch(/\/invitations\/[A-Za-z0-9_-]{43}/);
  });
});
