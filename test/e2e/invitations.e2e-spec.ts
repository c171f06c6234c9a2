import { createHash, randomBytes } from 'node:crypto';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { Clock } from '../../src/shared/domain/clock';
import { AppLogger } from '../../src/shared/logging.module';
import { openApiDocument } from '../../src/shared/management/openapi';
import { inviteToken, inviteTokens } from '../support/invitation-tokens';
import { invitePartner, PartnerMother, PARTNERS, SettableClock } from '../support/partner-mother';
import { createTestApp, createVendor, ISO_DATETIME, TestApp } from '../support/test-app';

const ACCEPT = '/api/v1/vendors/invitations/accept';
const DAY_MS = 24 * 60 * 60 * 1000;
const USER_FIELDS = [
  'id',
  'firstName',
  'lastName',
  'emailAddress',
  'phoneNumber',
  'jobTitle',
  'lastActiveAt',
];

interface UserBody {
  id: number;
  emailAddress: string;
  lastActiveAt: string | null;
}

/**
 * X20 (accept an invitation) and X21 (record activity) through HTTP on the database under test. The
 * dispatcher is off, so the tokens are read from the outbox bodies; the clock is pinned where a test
 * needs exact times (14-day expiry, 24-hour refresh) and real otherwise.
 */
describe('Invitations and partner-user activity (X20, X21)', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  const clock = new SettableClock();
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      override: (b) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(new MailDispatcherSettings({ autoStart: false }))
          .overrideProvider(Clock)
          .useValue(clock)
          // every log line (request log and Nest's logger), to prove no token is written
          .overrideProvider(AppLogger)
          .useValue(
            new AppLogger(pino({ level: 'trace' }, { write: (line: string) => logLines.push(line) })),
          ),
    });
    t.app.useLogger(t.app.get(AppLogger));
    key = (await createVendor(t.app, 'Vendor A')).apiKey;
    otherKey = (await createVendor(t.app, 'Vendor B')).apiKey;
  });
  afterAll(() => t.close());
  afterEach(() => clock.release());

  const accept = (body: unknown, apiKey = key) =>
    t.http
      .post(ACCEPT)
      .set('X-API-KEY', apiKey)
      .send(body as object);
  const activity = (partnerId: number | string, userId: number | string, apiKey = key) =>
    t.http.put(`${PARTNERS}/${partnerId}/users/${userId}/activity`).set('X-API-KEY', apiKey);
  const listed = async (partnerId: number, apiKey = key): Promise<UserBody[]> => {
    const response = await t.http.get(`${PARTNERS}/${partnerId}/users`).set('X-API-KEY', apiKey);
    expect(response.status).toBe(200);
    return response.body.data.data as UserBody[];
  };
  const lastActiveOf = async (partnerId: number, userId: number) =>
    (await listed(partnerId)).find((u) => u.id === userId)!.lastActiveAt;
  /** A partner of vendor A with these users (one by default); its users' invite tokens. */
  const partnerWithUsers = async (count = 1, apiKey = key) => {
    const users = Array.from({ length: count }, () => PartnerMother.user());
    const partner = await invitePartner(t.http, apiKey, PartnerMother.invite({ users }));
    const tokens = await Promise.all(users.map((u) => inviteToken(t.app, u.emailAddress)));
    return { partner, users: partner.users!, tokens };
  };
  /** Whether the invitation of this token was accepted, per row (one row per token). */
  const usedAt = async (token: string) => {
    // the same SHA-256 the service stores (the token itself is never stored)
    const hash = createHash('sha256').update(token).digest('hex');
    const rows: { used_at: unknown }[] = await t.app
      .get(DataSource)
      .query('SELECT used_at FROM invitations WHERE token_hash = ?', [hash]);
    return rows.map((r) => r.used_at !== null);
  };
  const expectNotFound = (response: { status: number; body: unknown }) => {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      message: 'RESOURCE_NOT_FOUND',
      status: 404,
      success: false,
      errors: [],
      timestamp: expect.stringMatching(ISO_DATETIME),
    });
  };

  describe('POST /invitations/accept (X20)', () => {
    it("answers the user's partner and the user with lastActiveAt = now; message null (D3), exact shape (D4)", async () => {
      clock.pin('2030-03-01T00:00:00.000Z');
      const { partner, users, tokens } = await partnerWithUsers(2);
      const now = clock.pin('2030-03-04T05:06:07.089Z');
      const response = await accept({ token: tokens[0] });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        message: null,
        data: {
          partnerId: partner.id,
          user: {
            id: users[0]!.id,
            firstName: 'Ann',
            lastName: null,
            emailAddress: users[0]!.emailAddress,
            phoneNumber: null,
            jobTitle: null,
            lastActiveAt: now.toISOString(),
          },
        },
        timestamp: expect.stringMatching(ISO_DATETIME),
      });
      expect(Object.keys(response.body.data.user).sort()).toEqual([...USER_FIELDS].sort());
      expect(await usedAt(tokens[0]!)).toEqual([true]);
      // the listing shows it; the other user's invite is still outstanding (lastActiveAt null)
      expect((await listed(partner.id)).map((u) => [u.id, u.lastActiveAt])).toEqual([
        [users[0]!.id, now.toISOString()],
        [users[1]!.id, null],
      ]);
    });

    it('accepts a token once: the second accept is 404 and changes nothing', async () => {
      clock.pin('2030-03-01T00:00:00.000Z');
      const { partner, users, tokens } = await partnerWithUsers();
      const first = clock.pin('2030-03-04T05:00:00.000Z');
      expect((await accept({ token: tokens[0] })).status).toBe(200);
      clock.pin('2030-03-06T05:00:00.000Z');
      expectNotFound(await accept({ token: tokens[0] }));
      expect(await lastActiveOf(partner.id, users[0]!.id)).toBe(first.toISOString());
    });

    it('sets lastActiveAt to now even when activity set it less than 24 hours before', async () => {
      clock.pin('2030-03-04T05:00:00.000Z');
      const { partner, users, tokens } = await partnerWithUsers();
      expect((await activity(partner.id, users[0]!.id)).status).toBe(200);
      const later = clock.pin('2030-03-04T06:00:00.000Z');
      const response = await accept({ token: tokens[0] });
      expect(response.body.data.user.lastActiveAt).toBe(later.toISOString());
    });

    it('answers an unknown token 404, whatever it looks like', async () => {
      for (const token of [randomBytes(32).toString('base64url'), 'x', 'é'.repeat(255), ' padded ']) {
        expectNotFound(await accept({ token }));
      }
    });

    it("answers 404 for another vendor's invitation, and the token stays valid for its own vendor", async () => {
      const { partner, users, tokens } = await partnerWithUsers();
      expectNotFound(await accept({ token: tokens[0] }, otherKey));
      expect(await usedAt(tokens[0]!)).toEqual([false]);
      expect(await lastActiveOf(partner.id, users[0]!.id)).toBeNull();
      expect((await accept({ token: tokens[0] })).status).toBe(200);
    });

    it('answers 404 for a token a later reinvite of the same user superseded; the latest one works', async () => {
      const { partner, users, tokens } = await partnerWithUsers();
      const reinvite = await t.http
        .post(`${PARTNERS}/${partner.id}/reinvite`)
        .set('X-API-KEY', key)
        .send({ emailAddress: users[0]!.emailAddress });
      expect(reinvite.status).toBe(200);
      const [first, latest] = await inviteTokens(t.app, users[0]!.emailAddress);
      expect(first).toBe(tokens[0]);
      expectNotFound(await accept({ token: first }));
      expect(await usedAt(first!)).toEqual([false]);
      expect((await accept({ token: latest })).status).toBe(200);
      expectNotFound(await accept({ token: first }));
    });

    it("does not let another vendor's reinvite supersede a vendor's token (superseding is per vendor)", async () => {
      const { partner, users, tokens } = await partnerWithUsers();
      const contact = users[0]!.emailAddress;
      // vendor B connects to the same partner through its user's address (D20), then reinvites it
      const connected = await invitePartner(
        t.http,
        otherKey,
        PartnerMother.invite({ contactEmailAddress: contact }),
      );
      expect(connected.id).toBe(partner.id);
      const reinvite = await t.http
        .post(`${PARTNERS}/${partner.id}/reinvite`)
        .set('X-API-KEY', otherKey)
        .send({ emailAddress: contact });
      expect(reinvite.status).toBe(200);
      const [ofA, firstOfB, latestOfB] = await inviteTokens(t.app, contact);
      expect(ofA).toBe(tokens[0]);
      expectNotFound(await accept({ token: firstOfB }, otherKey));
      expect((await accept({ token: ofA })).status).toBe(200);
      expect((await accept({ token: latestOfB }, otherKey)).status).toBe(200);
    });

    it('is valid for 14 days: 1 ms before, 200; at exactly 14 days, 404 (expired)', async () => {
      const issued = clock.pin('2030-05-01T09:30:00.000Z');
      const { tokens } = await partnerWithUsers(2);
      clock.pin(new Date(issued.getTime() + 14 * DAY_MS).toISOString());
      expectNotFound(await accept({ token: tokens[1] }));
      expect(await usedAt(tokens[1]!)).toEqual([false]);
      clock.pin(new Date(issued.getTime() + 14 * DAY_MS - 1).toISOString());
      expect((await accept({ token: tokens[0] })).status).toBe(200);
    });

    it('tells the invited user in the email that the link expires after 14 days', async () => {
      const { users } = await partnerWithUsers();
      const rows: { text_body: string }[] = await t.app
        .get(DataSource)
        .query('SELECT text_body FROM mail_outbox WHERE LOWER(recipient) = ?', [
          users[0]!.emailAddress.toLowerCase(),
        ]);
      expect(rows[0]!.text_body).toContain('within 14 days');
    });

    it('lets a reinvite of an accepted user issue a new token that can be accepted', async () => {
      const { partner, users, tokens } = await partnerWithUsers();
      expect((await accept({ token: tokens[0] })).status).toBe(200);
      await t.http
        .post(`${PARTNERS}/${partner.id}/reinvite`)
        .set('X-API-KEY', key)
        .send({ emailAddress: users[0]!.emailAddress })
        .expect(200);
      const latest = (await inviteTokens(t.app, users[0]!.emailAddress))[1];
      expect((await accept({ token: latest })).status).toBe(200);
    });

    it.each([
      ['missing', {}, 'is required'],
      ['null', { token: null }, 'is required'],
      ['empty', { token: '' }, 'must not be empty or blank'],
      ['blank', { token: '  \t' }, 'must not be empty or blank'],
      ['a number', { token: 12345 }, 'must be a string'],
      ['a list', { token: ['abc'] }, 'must be a string'],
      ['an object', { token: { value: 'abc' } }, 'must be a string'],
      ['longer than 255 characters', { token: 'a'.repeat(256) }, 'must be at most 255 characters'],
    ])('answers VALIDATION_FAILED naming token when it is %s', async (_case, body, error) => {
      const response = await accept(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        message: 'VALIDATION_FAILED',
        status: 400,
        success: false,
        errors: [{ field: 'token', error }],
      });
    });

    it('ignores unknown fields (D5) and answers INVALID_REQUEST without a JSON object body (D6, D38)', async () => {
      const { tokens } = await partnerWithUsers();
      expect((await accept({ token: tokens[0], vendorId: 999, userId: 1 })).status).toBe(200);
      for (const response of [
        await t.http.post(ACCEPT).set('X-API-KEY', key),
        await t.http.post(ACCEPT).set('X-API-KEY', key).set('Content-Type', 'application/json').send('{nope'),
        await t.http.post(ACCEPT).set('X-API-KEY', key).set('Content-Type', 'text/plain').send('token'),
        await t.http.post(ACCEPT).set('X-API-KEY', key).send(['token']),
      ]) {
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ message: 'INVALID_REQUEST', errors: [] });
      }
    });

    it('refuses a request without a valid key before reading the body (D8)', async () => {
      const { tokens } = await partnerWithUsers();
      const response = await t.http.post(ACCEPT).send({ token: tokens[0] });
      expect(response.status).toBe(401);
      expect(response.body.message).toBe('API_KEY_MISSING');
      expect(await usedAt(tokens[0]!)).toEqual([false]);
    });

    it('lets exactly one of ten concurrent accepts of one token succeed', async () => {
      const { partner, users, tokens } = await partnerWithUsers();
      const responses = await Promise.all(Array.from({ length: 10 }, () => accept({ token: tokens[0] })));
      expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array<number>(9).fill(404)]);
      for (const response of responses.filter((r) => r.status === 404)) expectNotFound(response);
      const winner = responses.find((r) => r.status === 200)!;
      expect(await usedAt(tokens[0]!)).toEqual([true]);
      expect(await lastActiveOf(partner.id, users[0]!.id)).toBe(winner.body.data.user.lastActiveAt);
    });

    it('writes no token to the log, whatever the answer', async () => {
      const { tokens } = await partnerWithUsers(2);
      const before = logLines.length;
      await accept({ token: tokens[0] }).expect(200);
      await accept({ token: tokens[0] }).expect(404);
      await accept({ token: tokens[1] }, otherKey).expect(404);
      await accept({ token: `${tokens[1]}${'x'.repeat(300)}` }).expect(400);
      const written = logLines.slice(before);
      // the request log saw the four requests, and none of the lines carries a token
      expect(
        written.filter((line) => line.includes('"route":"/api/v1/vendors/invitations/accept"')),
      ).toHaveLength(4);
      for (const token of tokens) expect(written.join('\n')).not.toContain(token);
    });
  });

  describe('PUT /partners/{partnerId}/users/{userId}/activity (X21)', () => {
    it('sets lastActiveAt of an outstanding user to now; message null (D3), exact PartnerUser shape (D4)', async () => {
      const { partner, users } = await partnerWithUsers();
      const now = clock.pin('2030-07-01T10:00:00.000Z');
      const response = await activity(partner.id, users[0]!.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        message: null,
        data: {
          id: users[0]!.id,
          firstName: 'Ann',
          lastName: null,
          emailAddress: users[0]!.emailAddress,
          phoneNumber: null,
          jobTitle: null,
          lastActiveAt: now.toISOString(),
        },
        timestamp: expect.stringMatching(ISO_DATETIME),
      });
      expect(await lastActiveOf(partner.id, users[0]!.id)).toBe(now.toISOString());
    });

    it('moves lastActiveAt once when reports arrive at once: every answer carries the stored time', async () => {
      const { partner, users } = await partnerWithUsers();
      // the real clock, which moves between the reports: each would write its own time without the lock
      const answers = await Promise.all(Array.from({ length: 10 }, () => activity(partner.id, users[0]!.id)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      const stored = await lastActiveOf(partner.id, users[0]!.id);
      expect(new Set(answers.map((answer) => answer.body.data.lastActiveAt))).toEqual(new Set([stored]));
    });

    it('leaves lastActiveAt within 24 hours (23:59:59.999) and refreshes it at exactly 24 hours', async () => {
      const { partner, users } = await partnerWithUsers();
      const first = clock.pin('2030-07-01T10:00:00.000Z');
      await activity(partner.id, users[0]!.id).expect(200);
      clock.pin('2030-07-02T09:59:59.999Z');
      const within = await activity(partner.id, users[0]!.id);
      expect(within.status).toBe(200);
      expect(within.body.data.lastActiveAt).toBe(first.toISOString());
      expect(await lastActiveOf(partner.id, users[0]!.id)).toBe(first.toISOString());
      const dayLater = clock.pin('2030-07-02T10:00:00.000Z');
      const refreshed = await activity(partner.id, users[0]!.id);
      expect(refreshed.body.data.lastActiveAt).toBe(dayLater.toISOString());
      expect(await lastActiveOf(partner.id, users[0]!.id)).toBe(dayLater.toISOString());
    });

    it('counts 24 hours from the acceptance too', async () => {
      const accepted = clock.pin('2030-07-01T10:00:00.000Z');
      const { partner, users, tokens } = await partnerWithUsers();
      await accept({ token: tokens[0] }).expect(200);
      clock.pin('2030-07-02T09:00:00.000Z');
      expect((await activity(partner.id, users[0]!.id)).body.data.lastActiveAt).toBe(accepted.toISOString());
    });

    it('ignores any body: JSON, invalid JSON, another content type (D38)', async () => {
      const { partner, users } = await partnerWithUsers();
      const now = clock.pin('2030-07-01T10:00:00.000Z');
      const path = `${PARTNERS}/${partner.id}/users/${users[0]!.id}/activity`;
      const responses = [
        await t.http.put(path).set('X-API-KEY', key).send({ lastActiveAt: '2000-01-01T00:00:00.000Z' }),
        await t.http.put(path).set('X-API-KEY', key).set('Content-Type', 'application/json').send('{nope'),
        await t.http.put(path).set('X-API-KEY', key).set('Content-Type', 'text/plain').send('hello'),
      ];
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.body.data.lastActiveAt).toBe(now.toISOString());
      }
    });

    it('lets every vendor connected to the partner record activity of any of its users (D40)', async () => {
      const { partner, users } = await partnerWithUsers();
      await invitePartner(
        t.http,
        otherKey,
        PartnerMother.invite({ contactEmailAddress: users[0]!.emailAddress }),
      );
      const now = clock.pin('2030-07-01T10:00:00.000Z');
      const response = await activity(partner.id, users[0]!.id, otherKey);
      expect(response.status).toBe(200);
      expect(response.body.data.lastActiveAt).toBe(now.toISOString());
    });

    it('answers 404 for a partner of another vendor, a missing partner, a user of another partner, a missing user (D25)', async () => {
      const mine = await partnerWithUsers();
      const myOther = await partnerWithUsers();
      const theirs = await partnerWithUsers(1, otherKey);
      for (const [partnerId, userId] of [
        [theirs.partner.id, theirs.users[0]!.id],
        [987654321, mine.users[0]!.id],
        [mine.partner.id, myOther.users[0]!.id],
        [mine.partner.id, theirs.users[0]!.id],
        [mine.partner.id, 987654321],
      ] as const) {
        expectNotFound(await activity(partnerId, userId));
      }
      // nothing was recorded for anyone
      expect(await lastActiveOf(myOther.partner.id, myOther.users[0]!.id)).toBeNull();
      expect((await listed(theirs.partner.id, otherKey))[0]!.lastActiveAt).toBeNull();
    });

    it('answers VALIDATION_FAILED naming each path id that is not a positive integer (D12)', async () => {
      const response = await activity('abc', 0);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        message: 'VALIDATION_FAILED',
        errors: [
          { field: 'partnerId', error: 'must be a positive integer' },
          { field: 'userId', error: 'must be a positive integer' },
        ],
      });
    });

    it('refuses a request without a valid key before anything else (D8)', async () => {
      const response = await t.http.put(`${PARTNERS}/abc/users/1/activity`).set('X-API-KEY', 'prm_wrong');
      expect(response.status).toBe(401);
      expect(response.body.message).toBe('INVALID_API_KEY');
    });
  });

  describe('routes', () => {
    it('answers other methods on the new paths 404 RESOURCE_NOT_FOUND (D11)', async () => {
      expectNotFound(await t.http.get(ACCEPT).set('X-API-KEY', key));
      expectNotFound(await t.http.post(`${PARTNERS}/1/users/1/activity`).set('X-API-KEY', key));
      expectNotFound(await t.http.get(`${PARTNERS}/1/users/1/activity`).set('X-API-KEY', key));
    });

    it('describes both operations in the OpenAPI document', () => {
      const document = openApiDocument(t.app) as unknown as {
        paths: Record<string, Record<string, { operationId: string; tags: string[]; summary: string }>>;
      };
      const acceptOperation = document.paths['/api/v1/vendors/invitations/accept']!['post']!;
      expect(acceptOperation).toMatchObject({ operationId: 'acceptInvitation', tags: ['Partners'] });
      expect(acceptOperation.summary).toContain('X20');
      const activityOperation =
        document.paths['/api/v1/vendors/partners/{partnerId}/users/{userId}/activity']!['put']!;
      expect(activityOperation).toMatchObject({
        operationId: 'recordPartnerUserActivity',
        tags: ['Partners'],
      });
      expect(activityOperation.summary).toContain('X21');
    });
  });
});
