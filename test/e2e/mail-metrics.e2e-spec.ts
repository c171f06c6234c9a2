import request from 'supertest';
import { MailDispatcher } from '../../src/mail/application/mail-dispatcher';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { Clock } from '../../src/shared/domain/clock';
import { ManagementServer } from '../../src/shared/management/management-server';
import { SettableClock } from '../support/lead-clock';
import { fastDispatcher } from '../support/mail-outbox';
import { invitePartner } from '../support/partner-mother';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { freePort } from '../support/server-process';
import { TestApp, createTestApp, createVendor } from '../support/test-app';

/**
 * The mail outbox on the management port's /metrics (docs/operations.md, "Metrics"): pending and
 * failed invite emails and the age of the oldest pending one. A database of its own, so the counts
 * are exact on MySQL too, and a dispatcher that runs only when the test says.
 */
describe('mail outbox metrics', () => {
  let db: ScratchDatabase;
  let t: TestApp;
  let scrape: () => Promise<string>;
  const clock = new SettableClock();

  const value = (text: string, name: string): number => {
    const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    if (!match) throw new Error(`no ${name} in /metrics`);
    return Number(match[1]);
  };

  beforeAll(async () => {
    db = await createScratchDatabase();
    t = await createTestApp({
      // nothing listens there: every attempt fails, and the one attempt allowed gives the message up
      env: { DATABASE_URL: db.url, SMTP_URL: `smtp://127.0.0.1:${await freePort()}` },
      override: (b) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(fastDispatcher({ autoStart: false, maxAttempts: 1 }))
          .overrideProvider(Clock)
          .useValue(clock),
    });
    const port = await t.app.get(ManagementServer).start(0, '127.0.0.1', {});
    scrape = async () => (await request(`http://127.0.0.1:${port}`).get('/metrics').expect(200)).text;
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('reads 0 pending, 0 failed and an age of 0 on an empty outbox', async () => {
    const text = await scrape();
    expect(value(text, 'mail_outbox_pending')).toBe(0);
    expect(value(text, 'mail_outbox_failed')).toBe(0);
    expect(value(text, 'mail_outbox_oldest_pending_age_seconds')).toBe(0);
  });

  it('counts the invite emails not sent yet and the age of the oldest, then the ones given up', async () => {
    clock.set('2031-01-01T00:00:00.000Z');
    const { apiKey } = await createVendor(t.app);
    await invitePartner(t.http, apiKey); // one email, to the contact
    clock.set('2031-01-01T00:01:30.000Z');
    await invitePartner(t.http, apiKey);
    clock.set('2031-01-01T00:02:00.000Z');
    let text = await scrape();
    expect(value(text, 'mail_outbox_pending')).toBe(2);
    expect(value(text, 'mail_outbox_failed')).toBe(0);
    expect(value(text, 'mail_outbox_oldest_pending_age_seconds')).toBe(120);

    await t.app.get(MailDispatcher).dispatchDue(); // the SMTP server refuses: both given up
    text = await scrape();
    expect(value(text, 'mail_outbox_pending')).toBe(0);
    expect(value(text, 'mail_outbox_failed')).toBe(2);
    expect(value(text, 'mail_outbox_oldest_pending_age_seconds')).toBe(0);
  });
});
