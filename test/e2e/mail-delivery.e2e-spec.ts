import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { fastDispatcher, outboxRows, settleOutbox } from '../support/mail-outbox';
import { invitePartner, PartnerMother, PARTNERS } from '../support/partner-mother';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database';
import { SmtpCapture } from '../support/smtp-capture';
import { createTestApp, createVendor, TestApp } from '../support/test-app';

const MAIL_FROM = 'partners@vendor.test'; // testConfig()
const LINK = /http:\/\/portal\.test\/app\/invitations\/([A-Za-z0-9_-]{43})/; // PORTAL_URL of testConfig()

/**
 * Invite emails through a real SMTP server (D35, D36): exactly one per invited user, none for a request
 * that failed, retried while the mail server is down. A database of its own, so no other test app's
 * dispatcher delivers these messages elsewhere.
 */
describe('Invite emails over SMTP (D35, D36)', () => {
  let smtp: SmtpCapture;
  let db: ScratchDatabase;
  let t: TestApp;
  let vendorA: { apiKey: string };
  let vendorB: { apiKey: string };
  let vendorAName: string;
  let vendorBName: string;

  beforeAll(async () => {
    smtp = await SmtpCapture.start();
    db = await createScratchDatabase();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, DATABASE_URL: db.url },
      override: (b) => b.overrideProvider(MailDispatcherSettings).useValue(fastDispatcher()),
    });
    vendorA = await createVendor(t.app, 'Vendor A');
    vendorB = await createVendor(t.app, 'Vendor B');
    const names: { name: string }[] = await t.app
      .get(DataSource)
      .query('SELECT name FROM vendors ORDER BY id');
    [vendorAName, vendorBName] = names.map((n) => n.name) as [string, string];
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
    await db.drop();
  });

  const post = (path: string, body: unknown, apiKey: string) =>
    t.http
      .post(`${PARTNERS}${path}`)
      .set('X-API-KEY', apiKey)
      .send(body as object);
  /** Waits until everything queued for these addresses went out, then counts per address. */
  const delivered = async (...addresses: string[]) => {
    await settleOutbox(t.app, addresses);
    return addresses.map((a) => smtp.to(a).length);
  };

  it('sends each invited user exactly one email from MAIL_FROM with a personal accept link; the token is stored as a hash only', async () => {
    const users = [PartnerMother.user({ firstName: 'Ann' }), PartnerMother.user({ firstName: 'Bob' })];
    const partner = await invitePartner(
      t.http,
      vendorA.apiKey,
      PartnerMother.invite({ companyName: 'Partner <script>alert(1)</script> & Co', users }),
    );
    expect(
      await delivered(users[0]!.emailAddress, users[1]!.emailAddress, partner.contactEmailAddress),
    ).toEqual([1, 1, 0]);
    const tokens: string[] = [];
    for (const [i, user] of users.entries()) {
      const mail = smtp.to(user.emailAddress)[0]!;
      expect(mail.envelopeFrom).toBe(MAIL_FROM);
      expect(mail.headers['from']).toContain(MAIL_FROM);
      expect(mail.recipients).toEqual([user.emailAddress]);
      expect(mail.headers['to']).toContain(user.emailAddress);
      expect(mail.subject).toContain(vendorAName);
      expect(mail.subject).toContain('Partner <script>alert(1)</script> & Co');
      expect(mail.text).toContain(`Hello ${user.firstName},`);
      expect(mail.text).toContain(vendorAName);
      expect(mail.text).toContain('Partner <script>alert(1)</script> & Co');
      // D36 + escaping: values in the HTML body arrive escaped, never as markup
      expect(mail.html).toContain('Partner &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
      expect(mail.html).not.toContain('<script>');
      const token = LINK.exec(mail.text)?.[1];
      expect(token).toBeDefined();
      expect(mail.html).toContain(`http://portal.test/app/invitations/${token}`);
      tokens.push(token!);
      const stored: { token_hash: string; vendor_id: number }[] = await t.app
        .get(DataSource)
        .query('SELECT token_hash, vendor_id FROM invitations WHERE user_id = ?', [partner.users![i]!.id]);
      expect(stored.map((s) => s.token_hash)).toEqual([createHash('sha256').update(token!).digest('hex')]);
    }
    expect(tokens[0]).not.toBe(tokens[1]);
    // once delivered, the outbox keeps no body (it carried the token in clear)
    const leftovers: { n: number | string }[] = await t.app
      .get(DataSource)
      .query('SELECT COUNT(*) AS n FROM mail_outbox WHERE text_body LIKE ? OR html_body LIKE ?', [
        `%${tokens[0]}%`,
        `%${tokens[0]}%`,
      ]);
    expect(Number(leftovers[0]!.n)).toBe(0);
  });

  it('sends the contact one email when users are omitted (D19)', async () => {
    const partner = await invitePartner(t.http, vendorA.apiKey);
    expect(await delivered(partner.contactEmailAddress)).toEqual([1]);
  });

  it('sends nothing for a failed invite or a failed batch (D21, D35)', async () => {
    const existing = await invitePartner(t.http, vendorA.apiKey);
    const fresh = PartnerMother.user();
    const failedInvite = PartnerMother.invite({
      users: [fresh, { firstName: 'X', emailAddress: existing.contactEmailAddress }],
    });
    expect((await post('', failedInvite, vendorA.apiKey)).status).toBe(400);
    const batchUser = PartnerMother.user();
    const failedBatch = await post(
      `/${existing.id}/users`,
      { users: [batchUser, { ...batchUser, firstName: 'Again' }] },
      vendorA.apiKey,
    );
    expect(failedBatch.status).toBe(400);
    const invalid = await post(
      `/${existing.id}/users`,
      { users: [PartnerMother.user(), { firstName: 'x' }] },
      vendorA.apiKey,
    );
    expect(invalid.status).toBe(400);
    // a dispatch round has run: only the successful invite's email went out
    expect(
      await delivered(
        existing.contactEmailAddress,
        fresh.emailAddress,
        failedInvite.contactEmailAddress as string,
        batchUser.emailAddress,
      ),
    ).toEqual([1, 0, 0, 0]);
    expect(
      await outboxRows(t.app, [
        fresh.emailAddress,
        batchUser.emailAddress,
        failedInvite.contactEmailAddress as string,
      ]),
    ).toEqual([]);
  });

  it('reinvite sends one more email, to that address only (D23)', async () => {
    const users = [PartnerMother.user(), PartnerMother.user()];
    const partner = await invitePartner(t.http, vendorA.apiKey, PartnerMother.invite({ users }));
    expect(await delivered(users[0]!.emailAddress, users[1]!.emailAddress)).toEqual([1, 1]);
    const response = await post(
      `/${partner.id}/reinvite`,
      { emailAddress: users[0]!.emailAddress },
      vendorA.apiKey,
    );
    expect(response.status).toBe(200);
    expect(await delivered(users[0]!.emailAddress, users[1]!.emailAddress)).toEqual([2, 1]);
    const [first, second] = smtp.to(users[0]!.emailAddress);
    expect(LINK.exec(second!.text)![1]).not.toBe(LINK.exec(first!.text)![1]);
    // a failed reinvite sends nothing
    expect(
      (await post(`/${partner.id}/reinvite`, { emailAddress: PartnerMother.email() }, vendorA.apiKey)).status,
    ).toBe(404);
    expect(await delivered(users[0]!.emailAddress, users[1]!.emailAddress)).toEqual([2, 1]);
  });

  it('acceptance: invite with two users, vendor B connects through one of them, then adds a user (D20, D36)', async () => {
    const ann = PartnerMother.user({ firstName: 'Ann' });
    const bob = PartnerMother.user({ firstName: 'Bob' });
    const carl = PartnerMother.user({ firstName: 'Carl' });
    const partner = await invitePartner(
      t.http,
      vendorA.apiKey,
      PartnerMother.invite({ contactEmailAddress: ann.emailAddress, users: [ann, bob] }),
    );
    expect(await delivered(ann.emailAddress, bob.emailAddress)).toEqual([1, 1]);

    const connect = await post(
      '',
      PartnerMother.invite({ contactEmailAddress: bob.emailAddress.toUpperCase() }),
      vendorB.apiKey,
    );
    expect(connect.status).toBe(200);
    expect(connect.body.data).toMatchObject({ id: partner.id, users: [] });
    // Bob (the existing contact user) gets one invite for vendor B; Ann gets none
    expect(await delivered(ann.emailAddress, bob.emailAddress)).toEqual([1, 2]);
    const bobForB = smtp.to(bob.emailAddress)[1]!;
    expect(bobForB.subject).toContain(vendorBName);
    expect(bobForB.text).toContain(partner.companyName);

    // a failed attempt in between sends nothing
    expect(
      (await post('', PartnerMother.invite({ contactEmailAddress: ann.emailAddress }), vendorB.apiKey))
        .status,
    ).toBe(400);

    const add = await post(`/${partner.id}/users`, { users: [carl] }, vendorB.apiKey);
    expect(add.status).toBe(200);
    expect(await delivered(ann.emailAddress, bob.emailAddress, carl.emailAddress)).toEqual([1, 2, 1]);
    expect(smtp.to(carl.emailAddress)[0]!.subject).toContain(vendorBName);

    const list = await t.http.get(`${PARTNERS}/${partner.id}/users`).set('X-API-KEY', vendorB.apiKey);
    expect(list.body.data.data.map((u: { emailAddress: string }) => u.emailAddress)).toEqual([
      ann.emailAddress,
      bob.emailAddress,
      carl.emailAddress,
    ]);
  });

  it('10 concurrent invites of one new contact: one 200, nine DUPLICATE_ENTRY, one email', async () => {
    const contact = PartnerMother.email('race');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('', PartnerMother.invite({ contactEmailAddress: contact }), vendorA.apiKey),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 400 && r.body.message === 'DUPLICATE_ENTRY')).toHaveLength(9);
    expect(await delivered(contact)).toEqual([1]);
  });

  it('still answers 200 while the mail server is down, and delivers once it is back (retry with backoff)', async () => {
    await smtp.stop();
    const user = PartnerMother.user();
    try {
      await invitePartner(t.http, vendorA.apiKey, PartnerMother.invite({ users: [user] }));
      // wait until the dispatcher has failed at least once and scheduled a retry
      const deadline = Date.now() + 15_000;
      for (;;) {
        const [row] = await outboxRows(t.app, [user.emailAddress]);
        if (row && row.attempts >= 1) {
          expect(row.status).toBe('PENDING');
          break;
        }
        if (Date.now() > deadline) throw new Error('the dispatcher never tried to send');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(smtp.to(user.emailAddress)).toHaveLength(0);
    } finally {
      await smtp.listen();
    }
    await smtp.waitFor(() => smtp.to(user.emailAddress).length > 0, 'the email after the server came back');
    expect(await delivered(user.emailAddress)).toEqual([1]);
    const [row] = await outboxRows(t.app, [user.emailAddress]);
    expect(row!.status).toBe('SENT');
    expect(row!.attempts).toBeGreaterThanOrEqual(1);
  });
});
