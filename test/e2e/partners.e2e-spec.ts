import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/shared/domain/clock';
import { outboxRows } from '../support/mail-outbox';
import {
  countPartners,
  countRows,
  countUsers,
  invitePartner,
  PartnerMother,
  PARTNERS,
  SettableClock,
  storedInvitedAt,
} from '../support/partner-mother';
import { createTestApp, createVendor, ISO_DATETIME, TestApp, unique } from '../support/test-app';

/**
 * docs/api.md endpoints 1-4 and D12-D25, D40 through HTTP on the database under test. The dispatcher is
 * off here: which emails a request queues is read from the outbox table (delivery is mail-*.e2e-spec).
 */
describe('Partners API (docs/api.md 1-4)', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  const clock = new SettableClock();

  beforeAll(async () => {
    t = await createTestApp({
      override: (b) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(new MailDispatcherSettings({ autoStart: false }))
          .overrideProvider(Clock)
          .useValue(clock),
    });
    key = (await createVendor(t.app, 'Vendor A')).apiKey;
    otherKey = (await createVendor(t.app, 'Vendor B')).apiKey;
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, apiKey = key) =>
    t.http
      .post(`${PARTNERS}${path}`)
      .set('X-API-KEY', apiKey)
      .send(body as object);
  const get = (path: string, apiKey = key) => t.http.get(`${PARTNERS}${path}`).set('X-API-KEY', apiKey);
  const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);
  const emailsTo = async (...recipients: string[]) =>
    (await outboxRows(t.app, recipients)).map((r) => r.recipient.toLowerCase());

  describe('POST /partners (invite)', () => {
    it('creates a new partner with every field and answers the docs/api.md Partner shape exactly (D4, D1)', async () => {
      const body = PartnerMother.fullInvite();
      const response = await post('', body);
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.message).toBe('PARTNER_INVITE_SUCCESSFUL');
      expect(response.body.timestamp).toMatch(ISO_DATETIME);
      const data = response.body.data;
      expect(Object.keys(data).sort()).toEqual(
        [
          'id',
          'companyName',
          'description',
          'website',
          'country',
          'companySize',
          'contactName',
          'contactEmailAddress',
          'contactPhone',
          'contactRole',
          'type',
          'users',
          'invitedAt',
          'createdAt',
        ].sort(),
      );
      expect(data).toMatchObject({
        companyName: body.companyName,
        description: 'We resell things.',
        website: 'https://partner.test',
        country: 'DE',
        companySize: '11-50',
        contactName: 'Carla Contact',
        contactEmailAddress: body.contactEmailAddress,
        contactPhone: '+49 30 123456',
        contactRole: 'CEO',
        type: 'RESELLER',
      });
      expect(typeof data.id).toBe('number');
      expect(data.createdAt).toMatch(ISO_DATETIME);
      expect(data.invitedAt).toBe(data.createdAt); // invitedAt: the request that queued the invites
    });

    it('without users creates one user from the contact: whole contactName as firstName, lastName null (D19)', async () => {
      const body = PartnerMother.invite({ contactName: 'Mary Ann van der Berg' });
      const data = (await post('', body)).body.data;
      expect(data.users).toEqual([
        {
          id: expect.any(Number),
          firstName: 'Mary Ann van der Berg',
          lastName: null,
          emailAddress: body.contactEmailAddress,
          phoneNumber: null,
          jobTitle: null,
          lastActiveAt: null,
        },
      ]);
      // nullable fields not sent are present as null (D4)
      expect(data).toMatchObject({
        description: null,
        website: null,
        country: null,
        companySize: null,
        contactPhone: null,
        contactRole: null,
        type: null,
      });
      expect(await emailsTo(body.contactEmailAddress as string)).toEqual([
        (body.contactEmailAddress as string).toLowerCase(),
      ]);
    });

    it('treats users: null like omitted (D19)', async () => {
      const body = PartnerMother.invite({ users: null });
      const data = (await post('', body)).body.data;
      expect(data.users.map((u: { emailAddress: string }) => u.emailAddress)).toEqual([
        body.contactEmailAddress,
      ]);
    });

    it('with users creates exactly those users, each invited once; a contact not among them is no user (D19, D36)', async () => {
      const users = [
        PartnerMother.user({ lastName: 'One', jobTitle: 'CTO', phoneNumber: '1' }),
        PartnerMother.user({ firstName: 'Bob' }),
      ];
      const body = PartnerMother.invite({ users });
      const response = await post('', body);
      expect(response.status).toBe(200);
      expect(response.body.data.users).toEqual([
        {
          id: expect.any(Number),
          firstName: 'Ann',
          lastName: 'One',
          emailAddress: users[0]!.emailAddress,
          phoneNumber: '1',
          jobTitle: 'CTO',
          lastActiveAt: null,
        },
        {
          id: expect.any(Number),
          firstName: 'Bob',
          lastName: null,
          emailAddress: users[1]!.emailAddress,
          phoneNumber: null,
          jobTitle: null,
          lastActiveAt: null,
        },
      ]);
      expect(await countUsers(t.app, body.contactEmailAddress as string)).toBe(0);
      expect(await emailsTo(body.contactEmailAddress as string)).toEqual([]);
      expect((await emailsTo(users[0]!.emailAddress, users[1]!.emailAddress)).sort()).toEqual(
        [users[0]!.emailAddress, users[1]!.emailAddress].map((e) => e.toLowerCase()).sort(),
      );
    });

    it('when the contact address is one of the users, that user is created once, from its users entry (D19)', async () => {
      const contact = PartnerMother.email('contact');
      const users = [
        PartnerMother.user(),
        PartnerMother.user({ firstName: 'Cathy', emailAddress: contact.toUpperCase() }),
      ];
      const data = (await post('', PartnerMother.invite({ contactEmailAddress: contact, users }))).body.data;
      expect(data.users).toHaveLength(2);
      expect(data.users[1]).toMatchObject({ firstName: 'Cathy', emailAddress: contact.toUpperCase() });
      expect(await countUsers(t.app, contact)).toBe(1);
      expect(await emailsTo(contact)).toHaveLength(1);
    });

    it('stores strings exactly as sent, addresses included (D13, D14)', async () => {
      const contact = `  ${unique('Mixed')}@Partner.TEST`.trim();
      const body = PartnerMother.invite({
        companyName: '  Spaced  Ünïcode GmbH ',
        contactEmailAddress: contact,
      });
      const data = (await post('', body)).body.data;
      expect(data.companyName).toBe('  Spaced  Ünïcode GmbH ');
      expect(data.contactEmailAddress).toBe(contact);
      expect(data.users[0].emailAddress).toBe(contact);
    });

    describe('contact address of an existing user (D20)', () => {
      it('connects the existing partner to another vendor without creating one, answering it as stored', async () => {
        const original = await invitePartner(t.http, key, PartnerMother.fullInvite());
        const contact = original.contactEmailAddress;
        const response = await post(
          '',
          PartnerMother.invite({
            companyName: 'Ignored Name',
            contactEmailAddress: contact.toUpperCase(),
            type: 'DISTRIBUTOR',
          }),
          otherKey,
        );
        expect(response.status).toBe(200);
        expect(response.body.message).toBe('PARTNER_INVITE_SUCCESSFUL');
        const data = response.body.data;
        expect(data).toMatchObject({
          id: original.id,
          companyName: original.companyName,
          contactEmailAddress: contact,
          type: 'RESELLER',
          description: 'We resell things.',
          createdAt: original.createdAt,
          users: [],
        });
        expect(await countPartners(t.app, 'Ignored Name')).toBe(0);
        expect(await countPartners(t.app, original.companyName)).toBe(1);
        // the existing contact user gets one more invite, for the new vendor
        expect(await emailsTo(contact)).toHaveLength(2);
        // and vendor B now sees the partner (D25) and all its users (D40)
        const list = await get(`/${original.id}/users`, otherKey);
        expect(list.status).toBe(200);
        expect(list.body.data.data.map((u: { emailAddress: string }) => u.emailAddress)).toEqual([contact]);
      });

      it('creates the users given with the connect and invites each once', async () => {
        const original = await invitePartner(t.http, key);
        const users = [PartnerMother.user(), PartnerMother.user()];
        const response = await post(
          '',
          PartnerMother.invite({ contactEmailAddress: original.contactEmailAddress, users }),
          otherKey,
        );
        expect(response.status).toBe(200);
        expect(response.body.data.users.map((u: { emailAddress: string }) => u.emailAddress)).toEqual(
          users.map((u) => u.emailAddress),
        );
        expect(await emailsTo(users[0]!.emailAddress)).toHaveLength(1);
        expect(await emailsTo(users[1]!.emailAddress)).toHaveLength(1);
        expect(await emailsTo(original.contactEmailAddress)).toHaveLength(2);
        const list = await get(`/${original.id}/users`);
        expect(list.body.data.totalItems).toBe(3);
      });

      it('is DUPLICATE_ENTRY on contactEmailAddress when the partner is already connected to this vendor; nothing written', async () => {
        const original = await invitePartner(t.http, key);
        const extra = PartnerMother.user();
        const response = await post(
          '',
          PartnerMother.invite({ contactEmailAddress: original.contactEmailAddress, users: [extra] }),
        );
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('DUPLICATE_ENTRY');
        expect(fields(response.body)).toEqual(['contactEmailAddress']);
        expect(await countUsers(t.app, extra.emailAddress)).toBe(0);
        expect(await emailsTo(original.contactEmailAddress, extra.emailAddress)).toHaveLength(1);
      });

      it('is DUPLICATE_ENTRY naming users[i] when a given user already exists, even on a connect (D21); not connected', async () => {
        const original = await invitePartner(t.http, key);
        const taken = await invitePartner(t.http, key);
        const response = await post(
          '',
          PartnerMother.invite({
            contactEmailAddress: original.contactEmailAddress,
            users: [PartnerMother.user(), { firstName: 'T', emailAddress: taken.contactEmailAddress }],
          }),
          otherKey,
        );
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('DUPLICATE_ENTRY');
        expect(fields(response.body)).toEqual(['users[1].emailAddress']);
        expect((await get(`/${original.id}/users`, otherKey)).status).toBe(404);
        expect(await emailsTo(original.contactEmailAddress)).toHaveLength(1);
      });
    });

    describe('duplicates: all or nothing (D21)', () => {
      it('names users[i].emailAddress of an address that belongs to an existing user, case-insensitively; nothing written, no email', async () => {
        const existing = await invitePartner(t.http, key);
        const fresh = PartnerMother.user();
        const body = PartnerMother.invite({
          users: [fresh, { firstName: 'X', emailAddress: existing.contactEmailAddress.toUpperCase() }],
        });
        const response = await post('', body);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ success: false, status: 400, message: 'DUPLICATE_ENTRY' });
        expect(fields(response.body)).toEqual(['users[1].emailAddress']);
        expect(await countPartners(t.app, body.companyName as string)).toBe(0);
        expect(await countUsers(t.app, fresh.emailAddress)).toBe(0);
        expect(await emailsTo(fresh.emailAddress, body.contactEmailAddress as string)).toEqual([]);
      });

      it('names the later occurrence of an address repeated inside users (case-insensitive)', async () => {
        const repeated = PartnerMother.email('rep');
        const body = PartnerMother.invite({
          users: [
            PartnerMother.user(),
            PartnerMother.user({ emailAddress: repeated }),
            PartnerMother.user(),
            PartnerMother.user({ emailAddress: repeated.toUpperCase() }),
          ],
        });
        const response = await post('', body);
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('DUPLICATE_ENTRY');
        expect(fields(response.body)).toEqual(['users[3].emailAddress']);
        expect(await countPartners(t.app, body.companyName as string)).toBe(0);
        expect(await countUsers(t.app, repeated)).toBe(0);
      });

      it('is DUPLICATE_ENTRY on contactEmailAddress when the same vendor invites the same contact again (no users)', async () => {
        const first = await invitePartner(t.http, key);
        const again = PartnerMother.invite({ contactEmailAddress: first.contactEmailAddress });
        const response = await post('', again);
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('DUPLICATE_ENTRY');
        expect(fields(response.body)).toEqual(['contactEmailAddress']);
        expect(await countPartners(t.app, again.companyName as string)).toBe(0);
      });
    });

    describe('validation (D13-D18, D22)', () => {
      it('lists every missing required field together (D18)', async () => {
        const response = await post('', {});
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(fields(response.body).sort()).toEqual(['companyName', 'contactEmailAddress', 'contactName']);
      });

      it.each(
        (
          [
            ['contactEmailAddress', 'not-an-email'],
            ['contactEmailAddress', 'two@@partner.test'],
            ['companyName', '   '],
            ['companyName', ''],
            ['contactName', 'x'.repeat(256)],
            ['website', 'x'.repeat(256)],
            ['country', 'x'.repeat(256)],
            ['companySize', 'x'.repeat(256)],
            ['contactPhone', 'x'.repeat(256)],
            ['contactRole', 'x'.repeat(256)],
            ['description', 'x'.repeat(5001)],
            ['type', 'reseller'],
            ['type', 'PARTNER'],
            ['companyName', 42],
            ['contactName', { first: 'a' }],
            ['description', true],
            ['type', 1],
            ['users', 'ann@partner.test'],
            ['users', { firstName: 'Ann' }],
            ['users', []],
          ] as [string, unknown][]
        ).map(([field, value]) => ({
          field,
          value,
          label:
            typeof value === 'string' && value.length > 20
              ? `${value.length} characters`
              : JSON.stringify(value),
        })),
      )('refuses $field = $label, naming it, writing nothing', async ({ field, value }) => {
        const body = PartnerMother.invite({ [field]: value });
        const response = await post('', body);
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(fields(response.body)).toEqual([field]);
        expect(await countPartners(t.app, body.companyName as string)).toBe(0);
      });

      it.each([
        [[[]], ['users[0]']],
        [[[{ firstName: 'Ann', emailAddress: 'ann@partner.test' }]], ['users[0]']],
        [
          ['ann@partner.test', null, 7],
          ['users[0]', 'users[1]', 'users[2]'],
        ],
      ])(
        'refuses users = %j whose elements are not objects, naming each, never a 500 (D13, D17)',
        async (users, named) => {
          const body = PartnerMother.invite({ users });
          const response = await post('', body);
          expect(response.status).toBe(400);
          expect(response.body.message).toBe('VALIDATION_FAILED');
          expect(fields(response.body)).toEqual(named);
          expect(await countPartners(t.app, body.companyName as string)).toBe(0);
        },
      );

      it('accepts the limits themselves: 255 characters (code points), description 5000, DISTRIBUTOR, 100 users (D14, D16, D22)', async () => {
        const users = Array.from({ length: 100 }, () => PartnerMother.user());
        const body = PartnerMother.invite({
          companyName: '😀'.repeat(255),
          description: 'd'.repeat(5000),
          type: 'DISTRIBUTOR',
          users,
        });
        const response = await post('', body);
        expect(response.status).toBe(200);
        expect(response.body.data.companyName).toBe('😀'.repeat(255));
        expect(response.body.data.users).toHaveLength(100);
      });

      it('refuses 101 users, naming users (D22); nothing written', async () => {
        const users = Array.from({ length: 101 }, () => PartnerMother.user());
        const response = await post('', PartnerMother.invite({ users }));
        expect(response.status).toBe(400);
        expect(fields(response.body)).toEqual(['users']);
        expect(await countUsers(t.app, users[0]!.emailAddress)).toBe(0);
      });

      it('names fields inside users as users[i].field, all of them (D13, D18)', async () => {
        const response = await post(
          '',
          PartnerMother.invite({
            contactEmailAddress: 'bad',
            users: [
              PartnerMother.user(),
              { firstName: 'Ann', emailAddress: 'nope' },
              { emailAddress: PartnerMother.email(), lastName: 7 },
              'not an object',
            ],
          }),
        );
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(fields(response.body).sort()).toEqual(
          [
            'contactEmailAddress',
            'users[1].emailAddress',
            'users[2].firstName',
            'users[2].lastName',
            'users[3]',
          ].sort(),
        );
      });

      it('ignores unknown and read-only fields (D5)', async () => {
        const body = PartnerMother.invite({
          id: 999999,
          createdAt: '2000-01-01',
          invitedAt: null,
          vendorId: 1,
          unknown: 'x',
        });
        const response = await post('', body);
        expect(response.status).toBe(200);
        expect(response.body.data.id).not.toBe(999999);
        expect(response.body.data).not.toHaveProperty('vendorId');
        expect(response.body.data).not.toHaveProperty('unknown');
      });

      it('is INVALID_REQUEST for invalid JSON or a missing body (D6, D38)', async () => {
        const broken = await t.http
          .post(PARTNERS)
          .set('X-API-KEY', key)
          .set('Content-Type', 'application/json')
          .send('{"companyName":');
        expect(broken.status).toBe(400);
        expect(broken.body.message).toBe('INVALID_REQUEST');
        const empty = await t.http.post(PARTNERS).set('X-API-KEY', key);
        expect(empty.status).toBe(400);
        expect(empty.body.message).toBe('INVALID_REQUEST');
      });
    });
  });

  describe('POST /partners/{partnerId}/reinvite', () => {
    it('queues one email to that address only and moves invitedAt to the time of the reinvite (D23)', async () => {
      const users = [PartnerMother.user(), PartnerMother.user()];
      clock.pin('2031-01-02T03:04:05.006Z');
      const partner = await invitePartner(t.http, key, PartnerMother.invite({ users }));
      expect(partner.invitedAt).toBe('2031-01-02T03:04:05.006Z');
      clock.pin('2031-02-03T04:05:06.789Z');
      const response = await post(`/${partner.id}/reinvite`, {
        emailAddress: users[1]!.emailAddress.toUpperCase(),
      });
      clock.release();
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        message: 'PARTNER_REINVITE_SUCCESSFUL',
        data: null,
      });
      expect(await emailsTo(users[0]!.emailAddress)).toHaveLength(1);
      expect(await emailsTo(users[1]!.emailAddress)).toHaveLength(2);
      expect(await storedInvitedAt(t.app, partner.id)).toBe('2031-02-03T04:05:06.789Z');
      // a fresh single-use token per email, stored as a hash only
      const tokens: { token_hash: string }[] = await t.app
        .get(DataSource)
        .query('SELECT token_hash FROM invitations WHERE user_id = ?', [partner.users![1]!.id]);
      expect(tokens).toHaveLength(2);
      expect(tokens[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(tokens[0]!.token_hash).not.toBe(tokens[1]!.token_hash);
    });

    it('does not move invitedAt when the reinvite fails', async () => {
      clock.pin('2032-01-01T00:00:00.000Z');
      const partner = await invitePartner(t.http, key);
      clock.pin('2032-06-01T00:00:00.000Z');
      await post(`/${partner.id}/reinvite`, { emailAddress: PartnerMother.email() });
      clock.release();
      expect(await storedInvitedAt(t.app, partner.id)).toBe('2032-01-01T00:00:00.000Z');
    });

    it('lets every connected vendor reinvite any user of the partner (D40)', async () => {
      const partner = await invitePartner(t.http, key);
      await invitePartner(
        t.http,
        otherKey,
        PartnerMother.invite({ contactEmailAddress: partner.contactEmailAddress }),
      );
      const response = await post(
        `/${partner.id}/reinvite`,
        { emailAddress: partner.contactEmailAddress },
        otherKey,
      );
      expect(response.status).toBe(200);
      expect(await emailsTo(partner.contactEmailAddress)).toHaveLength(3);
    });

    it('is 404 naming emailAddress when no user of this partner has the address (D23)', async () => {
      const partner = await invitePartner(t.http, key);
      const elsewhere = await invitePartner(t.http, key);
      for (const emailAddress of [PartnerMother.email(), elsewhere.contactEmailAddress]) {
        const response = await post(`/${partner.id}/reinvite`, { emailAddress });
        expect(response.status).toBe(404);
        expect(response.body.message).toBe('RESOURCE_NOT_FOUND');
        expect(fields(response.body)).toEqual(['emailAddress']);
      }
      expect(await emailsTo(elsewhere.contactEmailAddress)).toHaveLength(1);
    });

    it('validates emailAddress and the path id together (D12, D13, D18)', async () => {
      expect(fields((await post('/1/reinvite', {})).body)).toEqual(['emailAddress']);
      expect(fields((await post('/1/reinvite', { emailAddress: 'bad' })).body)).toEqual(['emailAddress']);
      expect(fields((await post('/1/reinvite', { emailAddress: 5 })).body)).toEqual(['emailAddress']);
      const both = await post('/abc/reinvite', { emailAddress: 'bad' });
      expect(both.status).toBe(400);
      expect(fields(both.body)).toEqual(['partnerId', 'emailAddress']);
    });
  });

  describe('POST /partners/{partnerId}/users', () => {
    it('creates every user, answers them as PartnerUser in order, queues one email each', async () => {
      const partner = await invitePartner(t.http, key);
      const users = [
        PartnerMother.user({ lastName: 'L', phoneNumber: 'P', jobTitle: 'J' }),
        PartnerMother.user({ firstName: 'Bo' }),
      ];
      const response = await post(`/${partner.id}/users`, { users });
      expect(response.status).toBe(200);
      expect(response.body.message).toBe('PARTNER_USERS_INVITE_SUCCESSFUL');
      expect(response.body.data).toEqual([
        {
          id: expect.any(Number),
          firstName: 'Ann',
          lastName: 'L',
          emailAddress: users[0]!.emailAddress,
          phoneNumber: 'P',
          jobTitle: 'J',
          lastActiveAt: null,
        },
        {
          id: expect.any(Number),
          firstName: 'Bo',
          lastName: null,
          emailAddress: users[1]!.emailAddress,
          phoneNumber: null,
          jobTitle: null,
          lastActiveAt: null,
        },
      ]);
      expect(await emailsTo(users[0]!.emailAddress)).toHaveLength(1);
      expect(await emailsTo(users[1]!.emailAddress)).toHaveLength(1);
      expect(await emailsTo(partner.contactEmailAddress)).toHaveLength(1);
    });

    it('rejects the whole batch on an existing or repeated address, naming it; nothing written, no email (D21)', async () => {
      const partner = await invitePartner(t.http, key);
      const fresh = PartnerMother.user();
      const existing = await post(`/${partner.id}/users`, {
        users: [fresh, { firstName: 'C', emailAddress: partner.contactEmailAddress.toUpperCase() }],
      });
      expect(existing.status).toBe(400);
      expect(existing.body.message).toBe('DUPLICATE_ENTRY');
      expect(fields(existing.body)).toEqual(['users[1].emailAddress']);
      const repeat = await post(`/${partner.id}/users`, {
        users: [fresh, PartnerMother.user(), { ...fresh, firstName: 'Again' }],
      });
      expect(fields(repeat.body)).toEqual(['users[2].emailAddress']);
      expect(await countUsers(t.app, fresh.emailAddress)).toBe(0);
      expect(await emailsTo(fresh.emailAddress)).toEqual([]);
      expect((await get(`/${partner.id}/users`)).body.data.totalItems).toBe(1);
    });

    it('validates before looking up the partner, and looks up before checking duplicates (D37)', async () => {
      const missing = await post('/999999999/users', { users: [{ firstName: 'A', emailAddress: 'bad' }] });
      expect(missing.status).toBe(400);
      expect(fields(missing.body)).toEqual(['users[0].emailAddress']);
      const partner = await invitePartner(t.http, key);
      const notFound = await post('/999999999/users', {
        users: [{ firstName: 'A', emailAddress: partner.contactEmailAddress }],
      });
      expect(notFound.status).toBe(404);
      expect(notFound.body.errors).toEqual([]);
    });

    it.each([
      [{}, ['users']],
      [{ users: null }, ['users']],
      [{ users: [] }, ['users']],
      [{ users: 'x' }, ['users']],
      [{ users: [{ firstName: 'A' }] }, ['users[0].emailAddress']],
      [{ users: [{ emailAddress: 'a@partner.test', firstName: '' }] }, ['users[0].firstName']],
      [
        { users: [{ emailAddress: 'a@partner.test', firstName: 'A', jobTitle: 'x'.repeat(256) }] },
        ['users[0].jobTitle'],
      ],
      [
        { users: [{ emailAddress: 'a@partner.test', firstName: 'A', phoneNumber: 123 }] },
        ['users[0].phoneNumber'],
      ],
    ])('refuses %# with VALIDATION_FAILED naming %j (D13, D17, D22)', async (body, expected) => {
      const partner = await invitePartner(t.http, key);
      const response = await post(`/${partner.id}/users`, body);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('VALIDATION_FAILED');
      expect(fields(response.body)).toEqual(expected);
      expect((await get(`/${partner.id}/users`)).body.data.totalItems).toBe(1);
    });

    it('refuses 101 users naming users (D22)', async () => {
      const partner = await invitePartner(t.http, key);
      const response = await post(`/${partner.id}/users`, {
        users: Array.from({ length: 101 }, () => PartnerMother.user()),
      });
      expect(response.status).toBe(400);
      expect(fields(response.body)).toEqual(['users']);
    });
  });

  describe('invitedAt: the time of the latest request that queued an invite email (README)', () => {
    it('is the creation time after an invite, and moves with add users and a D20 connect, not with a failed request', async () => {
      clock.pin('2033-01-01T00:00:00.000Z');
      const partner = await invitePartner(t.http, key);
      expect(partner.invitedAt).toBe('2033-01-01T00:00:00.000Z');
      expect(partner.createdAt).toBe('2033-01-01T00:00:00.000Z');

      clock.pin('2033-02-01T00:00:00.000Z');
      expect((await post(`/${partner.id}/users`, { users: [PartnerMother.user()] })).status).toBe(200);
      expect(await storedInvitedAt(t.app, partner.id)).toBe('2033-02-01T00:00:00.000Z');

      clock.pin('2033-03-01T00:00:00.000Z');
      const failed = await post(`/${partner.id}/users`, {
        users: [{ firstName: 'D', emailAddress: partner.contactEmailAddress }],
      });
      expect(failed.status).toBe(400);
      expect(await storedInvitedAt(t.app, partner.id)).toBe('2033-02-01T00:00:00.000Z');

      clock.pin('2033-04-01T00:00:00.000Z');
      const connect = await post(
        '',
        PartnerMother.invite({ contactEmailAddress: partner.contactEmailAddress }),
        otherKey,
      );
      clock.release();
      expect(connect.body.data).toMatchObject({
        id: partner.id,
        invitedAt: '2033-04-01T00:00:00.000Z',
        createdAt: '2033-01-01T00:00:00.000Z',
      });
      expect(await storedInvitedAt(t.app, partner.id)).toBe('2033-04-01T00:00:00.000Z');
    });
  });

  describe('GET /partners/{partnerId}/users (D24)', () => {
    let partnerId: number;
    const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo'];
    let emails: string[];

    beforeAll(async () => {
      emails = names.map((n) => `${n}-${unique()}@partner.test`);
      const users = names.map((n, i) => ({
        firstName: n,
        emailAddress: emails[i]!,
        lastName: i % 2 === 0 ? null : `Last${names.length - i}`,
        jobTitle: i === 2 ? 'Zed' : 'Analyst',
      }));
      partnerId = (await invitePartner(t.http, key, PartnerMother.invite({ users }))).id;
    });

    const list = async (query: string) => {
      const response = await get(`/${partnerId}/users${query}`);
      expect(response.status).toBe(200);
      expect(response.body.message).toBeNull();
      return response.body.data as {
        data: { id: number; firstName: string }[];
        page: number;
        perPage: number;
        totalItems: number;
      };
    };
    const firstNames = (page: { data: { firstName: string }[] }) => page.data.map((u) => u.firstName);

    it('defaults to page 0, 20 per page, sorted by id ascending; PartnerUser fields only (D4)', async () => {
      const page = await list('');
      expect(page).toMatchObject({ page: 0, perPage: 20, totalItems: 5 });
      expect(firstNames(page)).toEqual(names);
      expect(Object.keys(page.data[0]!).sort()).toEqual([
        'emailAddress',
        'firstName',
        'id',
        'jobTitle',
        'lastActiveAt',
        'lastName',
        'phoneNumber',
      ]);
    });

    it.each([
      ['firstName', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo']],
      ['emailAddress', ['Alpha', 'Bravo', 'charlie', 'delta', 'echo']],
      ['lastName', ['delta', 'charlie', 'echo', 'Bravo', 'Alpha']],
      ['jobTitle', ['delta', 'Alpha', 'Bravo', 'echo', 'charlie']],
      ['createdAt', names],
      ['id', names],
      ['unknownField', names],
      ['FIRSTNAME', names],
    ])('sorts by %s ascending, ties by id; unknown keys fall back to id', async (sortBy, expected) => {
      expect(firstNames(await list(`?sortBy=${sortBy}`))).toEqual(expected);
    });

    it('sorts names by their lower-cased form beyond ASCII, the same on both engines (D24)', async () => {
      const accented = ['Émile', 'élan', 'Zoë', 'adam', 'Åsa'];
      const users = accented.map((firstName, i) => ({
        firstName,
        emailAddress: `u${i}-${unique()}@partner.test`,
        lastName: i === 3 ? null : firstName.toUpperCase(),
        jobTitle: firstName,
      }));
      const other = (await invitePartner(t.http, key, PartnerMother.invite({ users }))).id;
      const sorted = async (sortBy: string) => {
        const response = await get(`/${other}/users?sortBy=${sortBy}`);
        expect(response.status).toBe(200);
        return firstNames(response.body.data);
      };
      // code points of the lower-cased forms: a < z < å (U+E5) < é (U+E9), then élan < émile
      expect(await sorted('firstName')).toEqual(['adam', 'Zoë', 'Åsa', 'élan', 'Émile']);
      expect(await sorted('jobTitle')).toEqual(['adam', 'Zoë', 'Åsa', 'élan', 'Émile']);
      expect(await sorted('lastName')).toEqual(['adam', 'Zoë', 'Åsa', 'élan', 'Émile']); // null first
    });

    it("sorts names the engines would lower-case differently by the service's own lower-cased copies (D24)", async () => {
      // MySQL/MariaDB's LOWER() turns İ into i and leaves ẞ as it is; the stored copies keep İ and hold ß
      const names = ['İz', 'j', 'ẞa', 'ña'];
      const users = names.map((firstName, i) => ({
        firstName,
        emailAddress: `d24-${i}-${unique()}@partner.test`,
        lastName: firstName,
        jobTitle: firstName,
      }));
      const other = (await invitePartner(t.http, key, PartnerMother.invite({ users }))).id;
      // code points of the copies: j (U+6A) < ß (U+DF) < ñ (U+F1) < İ (U+130)
      const expected = ['j', 'ẞa', 'ña', 'İz'];
      for (const sortBy of ['firstName', 'lastName', 'jobTitle']) {
        const response = await get(`/${other}/users?sortBy=${sortBy}`);
        expect(response.status).toBe(200);
        expect(firstNames(response.body.data)).toEqual(expected);
      }
    });

    it('pages without skipping or repeating', async () => {
      const pages = await Promise.all([0, 1, 2].map((p) => list(`?perPage=2&page=${p}&sortBy=firstName`)));
      expect(pages.map(firstNames)).toEqual([['Alpha', 'Bravo'], ['charlie', 'delta'], ['echo']]);
      expect(pages.every((p) => p.totalItems === 5 && p.perPage === 2)).toBe(true);
      const beyond = await list('?page=7');
      expect(beyond).toMatchObject({ data: [], page: 7, totalItems: 5 });
    });

    it.each([
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=abc', 'page'],
      ['perPage=0', 'perPage'],
      ['perPage=101', 'perPage'],
      ['perPage=ten', 'perPage'],
      ['page=1&page=2', 'page'],
    ])('refuses %s naming %s (D24, D39)', async (query, field) => {
      const response = await get(`/${partnerId}/users?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('VALIDATION_FAILED');
      expect(fields(response.body)).toEqual([field]);
    });

    it('accepts perPage 100 and 1', async () => {
      expect((await list('?perPage=100')).data).toHaveLength(5);
      expect((await list('?perPage=1')).data).toHaveLength(1);
    });
  });

  describe('path ids (D12) and tenancy (D25)', () => {
    it.each(['abc', '0', '1.5', '-1', '9007199254740992'])(
      'refuses partnerId %s on every endpoint with VALIDATION_FAILED naming partnerId',
      async (id) => {
        const responses = await Promise.all([
          post(`/${id}/reinvite`, { emailAddress: PartnerMother.email() }),
          post(`/${id}/users`, { users: [PartnerMother.user()] }),
          get(`/${id}/users`),
        ]);
        for (const response of responses) {
          expect(response.status).toBe(400);
          expect(response.body.message).toBe('VALIDATION_FAILED');
          expect(fields(response.body)).toEqual(['partnerId']);
        }
      },
    );

    it("answers another vendor's partner exactly like a missing one on every endpoint, changing nothing", async () => {
      const foreign = await invitePartner(t.http, otherKey);
      const newUser = PartnerMother.user();
      const missingId = 2 ** 40;
      const attempt = (id: number) =>
        Promise.all([
          post(`/${id}/reinvite`, { emailAddress: foreign.contactEmailAddress }),
          post(`/${id}/users`, { users: [newUser] }),
          get(`/${id}/users`),
        ]);
      const [foreignAnswers, missingAnswers] = await Promise.all([attempt(foreign.id), attempt(missingId)]);
      for (const [i, response] of foreignAnswers.entries()) {
        expect(response.status).toBe(404);
        expect(response.body.message).toBe('RESOURCE_NOT_FOUND');
        expect(response.body.errors).toEqual([]);
        const { timestamp: _a, ...foreignBody } = response.body;
        const { timestamp: _b, ...missingBody } = missingAnswers[i]!.body;
        expect(foreignBody).toEqual(missingBody);
        expect(JSON.stringify(response.body)).not.toContain(foreign.contactEmailAddress);
      }
      expect(await countUsers(t.app, newUser.emailAddress)).toBe(0);
      expect(await emailsTo(foreign.contactEmailAddress)).toHaveLength(1);
      // and an invite with that contact address connects rather than leaking or duplicating (D20)
      const connect = await post(
        '',
        PartnerMother.invite({ contactEmailAddress: foreign.contactEmailAddress }),
      );
      expect(connect.body.data.id).toBe(foreign.id);
    });
  });

  it('gives exactly one 200 and nine DUPLICATE_ENTRY for 10 concurrent invites of one new contact; one partner, one email', async () => {
    const contact = PartnerMother.email('race');
    const bodies = Array.from({ length: 10 }, (_, i) =>
      PartnerMother.invite({
        contactEmailAddress: i % 2 ? contact : contact.toUpperCase(),
        companyName: `Race ${contact}`,
      }),
    );
    const responses = await Promise.all(bodies.map((body) => post('', body)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
    for (const response of responses.filter((r) => r.status === 400)) {
      expect(response.body.message).toBe('DUPLICATE_ENTRY');
      expect(fields(response.body)).toEqual(['contactEmailAddress']);
    }
    expect(await countPartners(t.app, `Race ${contact}`)).toBe(1);
    expect(await countUsers(t.app, contact)).toBe(1);
    expect(await emailsTo(contact)).toHaveLength(1);
  });

  it('adds users and reinvites concurrently on one partner without a deadlock or a 500: all 200, every user and email once', async () => {
    const partner = await invitePartner(t.http, key);
    const emails = Array.from({ length: 60 }, (_, i) => PartnerMother.email(`busy${i}`));
    const adds = emails.map((emailAddress) =>
      post(`/${partner.id}/users`, { users: [{ firstName: 'Busy', emailAddress }] }),
    );
    const reinvites = Array.from({ length: 10 }, () =>
      post(`/${partner.id}/reinvite`, { emailAddress: partner.contactEmailAddress }),
    );
    const responses = await Promise.all([...adds, ...reinvites]);
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    for (const email of emails) expect(await countUsers(t.app, email)).toBe(1);
    expect(await emailsTo(...emails)).toHaveLength(60);
    expect(await emailsTo(partner.contactEmailAddress)).toHaveLength(11);
  });

  it('connects one partner to a second vendor exactly once under concurrent invites (D20, vendor_partners key)', async () => {
    const partner = await invitePartner(t.http, key);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        post('', PartnerMother.invite({ contactEmailAddress: partner.contactEmailAddress }), otherKey),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    expect(responses.filter((r) => r.status === 400).every((r) => r.body.message === 'DUPLICATE_ENTRY')).toBe(
      true,
    );
    expect(await countRows(t.app, 'vendor_partners', 'partner_id = ?', [partner.id])).toBe(2);
    expect(await emailsTo(partner.contactEmailAddress)).toHaveLength(2);
  });
});
