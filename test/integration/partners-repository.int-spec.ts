import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { ConcurrentWriteConflict } from '../../src/partners/application/concurrent-write-conflict';
import { InvitationRepository } from '../../src/partners/application/invitation-repository';
import { PartnerRepository } from '../../src/partners/application/partner-repository';
import { PartnerUserRepository } from '../../src/partners/application/partner-user-repository';
import { INVITATION_VALIDITY_MS, InvitationToken } from '../../src/partners/domain/invitation';
import { Partner } from '../../src/partners/domain/partner';
import { PartnerUser } from '../../src/partners/domain/partner-user';
import { PartnersModule } from '../../src/partners/partners.module';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { CreateVendorUseCase } from '../../src/vendors/application/create-vendor.use-case';
import { VendorsModule } from '../../src/vendors/vendors.module';
import { MigrationRunner } from '../../src/shared/infrastructure/database/migration-runner';
import { vendorApi } from '../support/lead-fixtures';
import { PartnerMother, invitePartner } from '../support/partner-mother';
import { createScratchDatabase } from '../support/scratch-database';
import { createTestApp, createTestContext, createVendor, unique } from '../support/test-app';

/** The partners adapters on the engine under test: the unique guards behind the use cases' checks. */
describe('TypeORM partner repositories', () => {
  let context: TestingModule;
  let uow: UnitOfWork;
  let partners: PartnerRepository;
  let users: PartnerUserRepository;
  let invitations: InvitationRepository;
  let vendorId: number;
  let otherVendorId: number;

  beforeAll(async () => {
    context = await createTestContext([VendorsModule, PartnersModule], {
      override: (b) =>
        b.overrideProvider(MailDispatcherSettings).useValue(new MailDispatcherSettings({ autoStart: false })),
    });
    uow = context.get(UnitOfWork);
    partners = context.get(PartnerRepository);
    users = context.get(PartnerUserRepository);
    invitations = context.get(InvitationRepository);
    vendorId = (await context.get(CreateVendorUseCase).execute(unique('Vendor'))).vendorId;
    otherVendorId = (await context.get(CreateVendorUseCase).execute(unique('Vendor'))).vendorId;
  });
  afterAll(() => context.close());

  const now = new Date('2030-03-04T05:06:07.089Z');
  const newPartner = () =>
    uow.run(() =>
      partners.insert(
        Partner.invite(
          {
            companyName: unique('Company'),
            description: null,
            website: null,
            country: null,
            companySize: null,
            contactName: 'C',
            contactEmailAddress: `${unique('c')}@p.test`,
            contactPhone: null,
            contactRole: null,
            type: null,
          },
          now,
        ),
      ),
    );
  const request = (emailAddress: string) => ({
    firstName: 'U',
    lastName: null,
    emailAddress,
    phoneNumber: null,
    jobTitle: null,
  });

  it('stores and reads a partner with millisecond datetimes (D1)', async () => {
    const partner = await newPartner();
    const stored = await uow.run(() => partners.findById(partner.id));
    expect(stored!.snapshot()).toEqual(partner.snapshot());
  });

  it('answers ConcurrentWriteConflict when the unique email index refuses a user, whatever the case (D13)', async () => {
    const partner = await newPartner();
    const email = `${unique('Taken')}@P.test`;
    await uow.run(() => users.insertAll([PartnerUser.register(partner.id, request(email), now)]));
    const attempt = uow.run(() =>
      users.insertAll([PartnerUser.register(partner.id, request(email.toUpperCase()), now)]),
    );
    await expect(attempt).rejects.toBeInstanceOf(ConcurrentWriteConflict);
    await expect(attempt).rejects.toMatchObject({ emailNormalized: email.toLowerCase() });
    expect((await uow.run(() => users.takenEmails([email.toLowerCase()]))).has(email.toLowerCase())).toBe(
      true,
    );
  });

  it('answers ConcurrentWriteConflict for a second connection of the same vendor and partner (primary key)', async () => {
    const partner = await newPartner();
    expect(await uow.run(() => partners.findConnected(vendorId, partner.id))).toBeNull();
    await uow.run(() => partners.connect(vendorId, partner, now));
    await expect(uow.run(() => partners.connect(vendorId, partner, now))).rejects.toBeInstanceOf(
      ConcurrentWriteConflict,
    );
    expect((await uow.run(() => partners.findConnected(vendorId, partner.id)))!.id).toBe(partner.id);
  });

  describe('invitations (X20)', () => {
    const newUser = async () => {
      const partner = await newPartner();
      const [user] = await uow.run(() =>
        users.insertAll([PartnerUser.register(partner.id, request(`${unique('u')}@p.test`), now)]),
      );
      return user!;
    };
    const issue = async (userId: number, forVendor = vendorId, at = now) => {
      const token = InvitationToken.generate();
      await uow.run(() =>
        invitations.insert({ userId, vendorId: forVendor, tokenHash: token.hash, createdAt: at }),
      );
      return token;
    };
    const find = (token: InvitationToken, forVendor = vendorId) =>
      uow.run(() => invitations.findForVendorByTokenHash(forVendor, token.hash));

    it("finds an invitation by its token's hash for its own vendor only", async () => {
      const user = await newUser();
      const token = await issue(user.id);
      const found = await find(token);
      expect(found).toMatchObject({ userId: user.id, vendorId });
      expect(found!.isAcceptableAt(now)).toBe(true);
      expect(await find(token, otherVendorId)).toBeNull();
      expect(await find(InvitationToken.generate())).toBeNull();
    });

    it('reads createdAt to the millisecond: acceptable 1 ms before 14 days, not at 14 days', async () => {
      const user = await newUser();
      const found = await find(await issue(user.id));
      expect(found!.isAcceptableAt(new Date(now.getTime() + INVITATION_VALIDITY_MS - 1))).toBe(true);
      expect(found!.isAcceptableAt(new Date(now.getTime() + INVITATION_VALIDITY_MS))).toBe(false);
    });

    it('marks an invitation superseded by a later one of the same user and vendor, not of another vendor', async () => {
      const user = await newUser();
      const first = await issue(user.id);
      await issue(user.id, otherVendorId);
      expect((await find(first))!.isAcceptableAt(now)).toBe(true);
      const second = await issue(user.id);
      expect((await find(first))!.isAcceptableAt(now)).toBe(false);
      expect((await find(second))!.isAcceptableAt(now)).toBe(true);
    });

    it('accepts an invitation once: the conditional write answers false the second time', async () => {
      const user = await newUser();
      const token = await issue(user.id);
      const { id } = (await find(token))!;
      expect(await uow.run(() => invitations.markAccepted(id, now))).toBe(true);
      expect(await uow.run(() => invitations.markAccepted(id, now))).toBe(false);
      expect((await find(token))!.isAcceptableAt(now)).toBe(false);
    });
  });

  it("finds a user by id, and in a partner only when it is that partner's; writes lastActiveAt", async () => {
    const partner = await newPartner();
    const other = await newPartner();
    const [user] = await uow.run(() =>
      users.insertAll([PartnerUser.register(partner.id, request(`${unique('u')}@p.test`), now)]),
    );
    expect(await uow.run(() => users.lockInPartner(other.id, user!.id))).toBeNull();
    const active = new Date('2030-03-05T00:00:00.001Z');
    const before = user!.snapshot();
    user!.acceptInvitation(active);
    await uow.run(() => users.saveLastActiveAt(user!));
    expect((await uow.run(() => users.lockInPartner(partner.id, user!.id)))!.snapshot()).toEqual({
      ...before,
      lastActiveAt: active,
    });
    expect((await uow.run(() => users.findById(user!.id)))!.snapshot()).toEqual({
      ...before,
      lastActiveAt: active,
    });
  });

  it('stores with the connection the copies the vendor’s listing reads: createdAt, type, lower-cased name and contact (X9)', async () => {
    const partner = await uow.run(() =>
      partners.insert(
        Partner.invite(
          {
            companyName: `ÉLAN ${unique('Co')}`,
            description: null,
            website: null,
            country: null,
            companySize: null,
            contactName: 'C',
            contactEmailAddress: `${unique('Mixed.Case')}@P.test`,
            contactPhone: null,
            contactRole: null,
            type: 'DISTRIBUTOR',
          },
          now,
        ),
      ),
    );
    await uow.run(() => partners.connect(vendorId, partner, new Date('2031-01-01T00:00:00.000Z')));
    const [row] = await context
      .get(DataSource)
      .query(
        'SELECT company_name_normalized, contact_email_normalized, partner_type FROM vendor_partners WHERE vendor_id = ? AND partner_id = ?',
        [vendorId, partner.id],
      );
    expect(row).toEqual({
      company_name_normalized: partner.companyName.toLowerCase(),
      contact_email_normalized: partner.snapshot().contactEmailAddress.toLowerCase(),
      partner_type: 'DISTRIBUTOR',
    });
    const page = await uow.read(() =>
      partners.listForVendor({
        vendorId,
        page: 0,
        perPage: 100,
        sortBy: 'createdAt',
        sortDirection: 'asc',
        keyword: 'élan',
      }),
    );
    expect(page.data.map((p) => p.snapshot())).toEqual([partner.snapshot()]);
  });
});

describe('migration VendorPartnerListing1763700000700', () => {
  it('fills the listing copies of the connections that existed before it (X9)', async () => {
    const scratch = await createScratchDatabase();
    const t = await createTestApp({ env: { DATABASE_URL: scratch.url } });
    try {
      const a = await createVendor(t.app);
      const b = await createVendor(t.app);
      const elan = await invitePartner(
        t.http,
        a.apiKey,
        PartnerMother.invite({ companyName: 'Élan Vital', type: 'RESELLER' }),
      );
      const zeta = await invitePartner(t.http, a.apiKey, PartnerMother.invite({ companyName: 'zeta' }));
      await invitePartner(
        t.http,
        b.apiKey,
        PartnerMother.invite({ contactEmailAddress: elan.contactEmailAddress }),
      );
      const dataSource = t.app.get(DataSource);
      const applied = async () =>
        ((await dataSource.query('SELECT name FROM migrations')) as { name: string }[]).map((m) => m.name);
      while ((await applied()).includes('VendorPartnerListing1763700000700')) {
        await dataSource.undoLastMigration({ transaction: 'each' });
      }
      await t.app.get(MigrationRunner).run();

      const list = async (apiKey: string, query: string) =>
        (
          (await vendorApi(t.http, apiKey).get(`/partners${query}`)).body.data as { data: { id: number }[] }
        ).data.map((p) => p.id);
      // lower-cased names in code point order: 'é' comes after 'z' (docs/partners-indexes.md)
      expect(await list(a.apiKey, '?sortBy=companyName&sortDirection=asc')).toEqual([zeta.id, elan.id]);
      expect(await list(a.apiKey, '?sortBy=createdAt&sortDirection=asc')).toEqual([elan.id, zeta.id]);
      expect(await list(a.apiKey, '?keyword=éLAN&type=RESELLER')).toEqual([elan.id]);
      expect(
        await list(a.apiKey, `?keyword=${encodeURIComponent(zeta.contactEmailAddress.toUpperCase())}`),
      ).toEqual([zeta.id]);
      expect(await list(b.apiKey, '?keyword=élan')).toEqual([elan.id]);
    } finally {
      await t.close();
      await scratch.drop();
    }
  });
});

describe('migration PartnerUserSortKeys1763700001000', () => {
  it('fills the sort copies of the users that existed before it (D24)', async () => {
    const scratch = await createScratchDatabase();
    const t = await createTestApp({ env: { DATABASE_URL: scratch.url } });
    try {
      const { apiKey } = await createVendor(t.app);
      const names = ['Émile', 'zoë', 'İz', 'Adam'];
      const partner = await invitePartner(
        t.http,
        apiKey,
        PartnerMother.invite({
          users: names.map((firstName, i) => ({
            firstName,
            lastName: i === 3 ? null : firstName.toUpperCase(),
            jobTitle: i === 0 ? null : firstName,
            emailAddress: `sort-${i}-${unique()}@partner.test`,
          })),
        }),
      );
      const dataSource = t.app.get(DataSource);
      const applied = async () =>
        ((await dataSource.query('SELECT name FROM migrations')) as { name: string }[]).map((m) => m.name);
      const sqlite = dataSource.options.type === 'better-sqlite3';
      const counter = async () =>
        (
          (await dataSource.query(`SELECT seq FROM sqlite_sequence WHERE name = 'partner_users'`)) as {
            seq: number;
          }[]
        )[0]?.seq;
      // as if later users had been removed: AUTOINCREMENT must not hand their ids out again
      if (sqlite)
        await dataSource.query(`UPDATE sqlite_sequence SET seq = seq + 100 WHERE name = 'partner_users'`);
      const counterBefore = sqlite ? await counter() : undefined;
      while ((await applied()).includes('PartnerUserSortKeys1763700001000')) {
        await dataSource.undoLastMigration({ transaction: 'each' });
      }
      await t.app.get(MigrationRunner).run();
      if (sqlite) expect(await counter()).toBe(counterBefore);

      const copies = (await dataSource.query(
        `SELECT first_name, first_name_normalized, last_name_normalized, job_title_normalized
           FROM partner_users ORDER BY id`,
      )) as Record<string, string | null>[];
      expect(copies).toEqual([
        {
          first_name: 'Émile',
          first_name_normalized: 'émile',
          last_name_normalized: 'émile',
          job_title_normalized: null,
        },
        {
          first_name: 'zoë',
          first_name_normalized: 'zoë',
          last_name_normalized: 'zoë',
          job_title_normalized: 'zoë',
        },
        {
          first_name: 'İz',
          first_name_normalized: 'İz',
          last_name_normalized: 'İz',
          job_title_normalized: 'İz',
        },
        {
          first_name: 'Adam',
          first_name_normalized: 'adam',
          last_name_normalized: null,
          job_title_normalized: 'adam',
        },
      ]);
      const sorted = async (sortBy: string) =>
        (
          (await vendorApi(t.http, apiKey).get(`/partners/${partner.id}/users?sortBy=${sortBy}`)).body
            .data as {
            data: { firstName: string }[];
          }
        ).data.map((u) => u.firstName);
      expect(await sorted('firstName')).toEqual(['Adam', 'zoë', 'Émile', 'İz']);
      expect(await sorted('lastName')).toEqual(['Adam', 'zoë', 'Émile', 'İz']);
      expect(await sorted('jobTitle')).toEqual(['Émile', 'Adam', 'zoë', 'İz']);
    } finally {
      await t.close();
      await scratch.drop();
    }
  });
});
