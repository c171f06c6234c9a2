import { createHash } from 'node:crypto';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { SMTPServer } from 'smtp-server';
import { DataSource } from 'typeorm';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { AuthLane } from '../../src/shared/infrastructure/database/auth-lane';
import { AppLogger } from '../../src/shared/logging.module';
import { CapturedLog } from '../support/captured-log';
import { VendorQueries } from '../../src/vendors/infrastructure/vendors.queries';
import { vendorApi } from '../support/lead-fixtures';
import { fastDispatcher, settleOutbox } from '../support/mail-outbox';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { TestApp, createTestApp, createVendor, isMysql, unique } from '../support/test-app';

/** A mail server that refuses every recipient, quoting the address in its answer (as real ones do). */
async function refusingSmtpServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(
        Object.assign(new Error(`<${address.address}>: Recipient address rejected`), { responseCode: 550 }),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * docs/operations.md, "What the logs hold": no email address, name, phone number, comment, invite
 * token, API key or key hash in any log line above debug. A whole scenario runs against the real
 * application with every log line captured (at trace), then the lines above debug are searched for
 * every personal value the scenario sent: invites with users, added users, a reinvite, leads and
 * keyword searches, a rejected lead with a comment, a database error on a statement full of personal
 * data, a mail server refusing the recipients, and wrong keys.
 */
describe('logs hold no personal data', () => {
  let t: TestApp;
  const log = new CapturedLog('trace');
  let smtp: { url: string; stop: () => Promise<void> };
  let scratch: ScratchDatabase;
  const trigger = unique('no_users_');
  const refusedName = unique('Refused');

  beforeAll(async () => {
    smtp = await refusingSmtpServer();
    // A database of its own, as the other mail tests have: on the shared MySQL database another test
    // file's app, whose dispatcher runs, could claim this file's outbox rows and hold them past the
    // wait below (seen once in CI), and the trigger below would reach that file's inserts.
    scratch = await createScratchDatabase();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, DATABASE_URL: scratch.url },
      override: (b) =>
        b
          .overrideProvider(AppLogger)
          .useValue(log.logger)
          .overrideProvider(MailDispatcherSettings)
          // A lease long enough for a slow shared database: with the 2 s of the other mail tests, a
          // claim that took over 1 s left under half the lease, so every round gave the batch back.
          .useValue(fastDispatcher({ autoStart: false, maxAttempts: 2, leaseMs: 30_000 })),
    });
    t.app.useLogger(t.app.get(AppLogger));
    // A database error on a statement that carries a user's name, email and phone as parameters.
    const db = t.app.get(DataSource);
    await db.query(
      isMysql()
        ? `CREATE TRIGGER ${trigger} BEFORE INSERT ON partner_users FOR EACH ROW BEGIN
             IF NEW.first_name = '${refusedName}' THEN
               SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by a test trigger';
             END IF;
           END`
        : `CREATE TRIGGER ${trigger} BEFORE INSERT ON partner_users WHEN NEW.first_name = '${refusedName}'
           BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`,
    );
  });
  afterAll(async () => {
    await t.app.get(DataSource).query(`DROP TRIGGER ${trigger}`);
    await t.close();
    await smtp.stop();
    await scratch.drop();
  });

  it('runs a whole scenario without one personal value in a log line above debug', async () => {
    const { apiKey } = await createVendor(t.app);
    const api = vendorApi(t.http, apiKey);
    const personal: string[] = [apiKey, createHash('sha256').update(apiKey).digest('hex')];
    /** a value no other test sends, remembered to be searched for in the log */
    const value = (prefix: string) => {
      const v = unique(prefix);
      personal.push(v);
      return v;
    };
    const email = (prefix: string) => value(prefix).toLowerCase() + '@privacy.example';
    const user = () => ({
      firstName: value('First'),
      lastName: value('Last'),
      emailAddress: email('user'),
      phoneNumber: value('+4930'),
      jobTitle: value('Title'),
    });
    const contactEmail = email('contact');
    personal.push(contactEmail);

    const invite = await api.post('/partners').send({
      companyName: value('Company'),
      contactName: value('Contact'),
      contactEmailAddress: contactEmail,
      contactPhone: value('+4989'),
      contactRole: value('Role'),
      users: [{ ...user(), emailAddress: contactEmail }, user()],
    });
    expect(invite.status).toBe(200);
    const partnerId = invite.body.data.id as number;

    const added = user();
    personal.push(added.emailAddress);
    expect((await api.post(`/partners/${partnerId}/users`).send({ users: [added] })).status).toBe(200);
    expect(
      (await api.post(`/partners/${partnerId}/reinvite`).send({ emailAddress: added.emailAddress })).status,
    ).toBe(200);
    // the database error: 500, logged, with the statement's values in its parameters
    const refused = { ...user(), firstName: refusedName };
    personal.push(refusedName);
    const failed = await api.post(`/partners/${partnerId}/users`).send({ users: [refused] });
    expect(failed.status).toBe(500);

    const leadEmail = email('lead');
    const lead = await api.post(`/partners/${partnerId}/leads`).send({
      firstName: value('Lead'),
      lastName: value('Person'),
      emailAddress: leadEmail,
      phoneNumber: value('+331'),
      companyName: value('LeadCo'),
      city: value('City'),
    });
    expect(lead.status).toBe(200);
    const duplicate = await api
      .post(`/partners/${partnerId}/leads`)
      .send({ firstName: value('Again'), emailAddress: leadEmail, companyName: 'X' });
    expect(duplicate.body.message).toBe('DUPLICATE_ENTRY');
    for (const keyword of [leadEmail, leadEmail.slice(0, 12), encodeURIComponent(leadEmail)]) {
      expect((await api.get(`/partners/${partnerId}/leads?keyword=${keyword}`)).status).toBe(200);
    }
    const comment = value('Comment');
    expect((await api.put(`/leads/${lead.body.data.id}/reject`).send({ comment })).status).toBe(200);

    const wrongKey = value('prm_wrong');
    expect((await t.http.get('/api/v1/vendors/leads/1').set('X-API-KEY', wrongKey)).status).toBe(401);
    expect((await t.http.get(`/api/v1/vendors/leads/1?email=${leadEmail}`)).status).toBe(401);

    // the invite tokens of every email, before the dispatcher gives up (and erases the bodies)
    const recipients = [
      contactEmail,
      added.emailAddress,
      ...invite.body.data.users.map((u: { emailAddress: string }) => u.emailAddress),
    ];
    const bodies: { text_body: string | null }[] = await t.app
      .get(DataSource)
      .query(
        `SELECT text_body FROM mail_outbox WHERE recipient IN (${recipients.map(() => '?').join(', ')})`,
        recipients,
      );
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    for (const { text_body } of bodies) {
      const token = /\/invitations\/([^\s"<>]+)/.exec(text_body ?? '')?.[1];
      expect(token).toBeDefined();
      personal.push(token!);
    }
    // every email refused by the mail server, twice, then given up
    await settleOutbox(t.app, recipients);

    const lines = log.text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { level: number; msg?: string });
    const aboveDebug = lines.filter((line) => line.level > 20);
    // the capture saw what it should have seen
    const messages = aboveDebug.map((line) => line.msg ?? '');
    expect(messages).toContain('request completed');
    expect(messages).toContain('unexpected error');
    expect(messages.some((m) => m.startsWith('giving up on outbox message'))).toBe(true);
    expect(messages.some((m) => m.includes('Recipient address rejected'))).toBe(true);

    const text = aboveDebug
      .map((line) => JSON.stringify(line))
      .join('\n')
      .toLowerCase();
    const found = personal.filter((p) => text.includes(p.toLowerCase()));
    expect(found).toEqual([]);
  });
});

/** The lookup of a presented key fails in the database: the error line carries neither key nor hash. */
describe('a failed API-key lookup in the log', () => {
  it('logs the database error without the key or its SHA-256 (a statement parameter)', async () => {
    const log = new CapturedLog('trace');
    /** The real key lookup, with a statement that fails in the database, the hash bound to it. */
    class FailingLookup extends VendorQueries {
      constructor(
        txHost: TransactionHost<TransactionalAdapterTypeOrm>,
        private readonly lane: AuthLane,
      ) {
        super(txHost, lane);
      }
      override async activeKeyByHash(keyHash: string): Promise<null> {
        await this.lane.dataSource.query(
          'SELECT id FROM api_keys WHERE key_hash = ? AND no_such_column = 1',
          [keyHash],
        );
        return null;
      }
    }
    const t = await createTestApp({
      override: (b) =>
        b
          .overrideProvider(AppLogger)
          .useValue(log.logger)
          .overrideProvider(VendorQueries)
          .useFactory({
            factory: (txHost: TransactionHost<TransactionalAdapterTypeOrm>, lane: AuthLane) =>
              new FailingLookup(txHost, lane),
            inject: [TransactionHost, AuthLane],
          }),
    });
    t.app.useLogger(t.app.get(AppLogger));
    try {
      const key = `prm_${unique('lookup')}`;
      const response = await t.http.get('/api/v1/vendors/nothing').set('X-API-KEY', key);
      expect(response.status).toBe(500);
      const errors = log.text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { level: number; msg?: string; err?: { type: string } })
        .filter((line) => line.level >= 50 && line.msg !== 'request completed');
      expect(errors.map((line) => [line.msg, line.err?.type])).toEqual([
        ['unexpected error', 'QueryFailedError'],
      ]);
      const hash = createHash('sha256').update(key).digest('hex');
      expect(log.text).not.toContain(hash);
      expect(log.text).not.toContain(key);
    } finally {
      await t.close();
    }
  });
});
