import { ContactRepository } from '../../src/contacts/application/contact-repository';
import { Contact } from '../../src/contacts/domain/contact';
import { LeadRepository } from '../../src/leads/application/lead-repository';
import { Lead } from '../../src/leads/domain/lead';
import { LeadListQuery } from '../../src/leads/domain/lead-list-query';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { DuplicateEntryError } from '../../src/shared/domain/domain-error';
import { connectPartner, insertConnectedPartner } from '../support/lead-fixtures';
import { LeadMother } from '../support/lead-mother';
import { DataSource, EntityManager } from 'typeorm';
import { TestApp, createTestApp, createVendor, isMysql, unique } from '../support/test-app';
import { contactFromLead } from '../../src/leads/application/contact-from-lead';

/** The TypeORM adapters of leads and contacts on the engine under test (SQLite, or MariaDB with test:mysql). */
describe('TypeOrmLeadRepository and TypeOrmContactRepository', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let leads: LeadRepository;
  let contacts: ContactRepository;
  let vendorId: number;
  let partnerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    uow = t.app.get(UnitOfWork);
    leads = t.app.get(LeadRepository);
    contacts = t.app.get(ContactRepository);
    vendorId = (await createVendor(t.app)).vendorId;
    partnerId = await insertConnectedPartner(t.app, vendorId);
  });
  afterAll(() => t.close());

  const email = (prefix = 'lead') => `${unique(prefix)}@Example.test`;

  async function stored(
    details: Record<string, unknown> = {},
    at = new Date(),
    owner = { vendorId, partnerId },
  ): Promise<Lead> {
    const lead = Lead.submit(
      { ...owner, details: LeadMother.details({ emailAddress: email(), ...details }) },
      at,
    );
    await uow.run(() => leads.insert(lead));
    return lead;
  }

  function query(overrides: Partial<LeadListQuery> = {}): LeadListQuery {
    return {
      vendorId,
      partnerId,
      page: 0,
      perPage: 100,
      sortBy: 'createdAt',
      sortDirection: 'desc',
      statuses: [],
      sources: [],
      archived: false,
      ...overrides,
    };
  }

  const convert = (lead: Lead): Contact => contactFromLead(lead, new Date());

  it('stores a lead and reads back every field, datetimes to the millisecond (D1)', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const lead = await stored(
      { productsInterested: 'p'.repeat(5000), leadAge: 0, city: '😀'.repeat(255) },
      at,
    );
    lead.reject('because', new Date('2026-03-05T00:00:00.001Z'));
    lead.archive(new Date('2026-03-06T00:00:00.002Z'));
    await uow.run(() => leads.update(lead));
    const found = await uow.run(() => leads.findForVendor(lead.id!, vendorId));
    expect(found!.snapshot()).toEqual(lead.snapshot());
    expect(found!.snapshot().createdAt.toISOString()).toBe('2026-03-04T05:06:07.089Z');
  });

  it('reads text of any kind back unchanged, through every read of a lead', async () => {
    // The hand-written reads (LeadQueries) and TypeORM's: quotes, backslashes, control characters,
    // NUL, line separators and characters beyond the BMP must survive the trip.
    const lead = await stored({
      firstName: 'Zoë "Q" \\ /',
      lastName: 'a\u0000b',
      companyName: '\u0001\u001f\u007f tab\there',
      productsInterested: 'line\nbreak \u2028 \u2029 </script>',
      city: '😀𝄞',
      jobTitle: '{"json": [1, 2]}',
      externalId: '[null]',
      businessImpactMetrics: null,
      leadAge: 2147483647,
    });
    const expected = lead.snapshot();
    expect((await uow.read(() => leads.findForVendor(lead.id!, vendorId)))!.snapshot()).toEqual(expected);
    expect((await uow.read(() => leads.findViewForVendor(lead.id!, vendorId)))!.lead.snapshot()).toEqual(
      expected,
    );
    expect((await uow.run(() => leads.lockForVendor(lead.id!, vendorId)))!.snapshot()).toEqual(expected);
    const page = await uow.read(() => leads.listForPartner(query({ keyword: 'zoë' })));
    expect(page.leads.map((found) => found.lead.snapshot())).toEqual([expected]);
  });

  describe('update', () => {
    const cityOf = async (id: number) =>
      (
        (await t.app.get(DataSource).query('SELECT city FROM leads WHERE id = ?', [id])) as { city: string }[]
      )[0]!.city;
    const setCityElsewhere = (id: number, city: string) =>
      t.app.get(DataSource).query('UPDATE leads SET city = ? WHERE id = ?', [city, id]);

    it('writes only the columns that changed: a column it did not change keeps what was written meanwhile', async () => {
      const lead = await stored({ city: 'Lyon' });
      const loaded = (await uow.run(() => leads.lockForVendor(lead.id!, vendorId)))!;
      await setCityElsewhere(lead.id!, 'Nantes'); // after the load, by another writer
      loaded.update({ jobTitle: 'CTO' }, new Date());
      loaded.approve(new Date());
      await uow.run(() => leads.update(loaded));
      const found = (await uow.run(() => leads.findForVendor(lead.id!, vendorId)))!;
      expect(found.snapshot()).toEqual({ ...loaded.snapshot(), city: 'Nantes' });
      expect(found.approvalStatus).toBe('APPROVED');
    });

    it('writes every field that changed, in one update after another of the same lead', async () => {
      const at = new Date('2026-05-06T07:08:09.123Z');
      const lead = await stored({ city: 'Lyon', leadAge: 3 }, at);
      lead.update(
        { city: 'Nice', leadAge: 0, phoneNumber: null, emailAddress: email('moved') },
        new Date(at.getTime() + 1),
      );
      await uow.run(() => leads.update(lead));
      lead.reject('no budget', new Date(at.getTime() + 2));
      await uow.run(() => leads.update(lead));
      lead.archive(new Date(at.getTime() + 3));
      await uow.run(() => leads.update(lead));
      const found = (await uow.run(() => leads.findForVendor(lead.id!, vendorId)))!;
      expect(found.snapshot()).toEqual(lead.snapshot());
      expect(found.archived).toBe(true);
      expect(await uow.run(() => leads.emailTaken(vendorId, partnerId, lead.emailNormalized))).toBe(true);
    });

    it('writes nothing when nothing changed', async () => {
      const lead = await stored({ city: 'Lyon' });
      const loaded = (await uow.run(() => leads.lockForVendor(lead.id!, vendorId)))!;
      await setCityElsewhere(lead.id!, 'Nantes');
      await uow.run(() => leads.update(loaded));
      expect(await cityOf(lead.id!)).toBe('Nantes');
    });
  });

  it("does not find another vendor's lead (D27)", async () => {
    const lead = await stored();
    const other = await createVendor(t.app);
    expect(await uow.run(() => leads.findForVendor(lead.id!, other.vendorId))).toBeNull();
    expect(await uow.run(() => leads.lockForVendor(lead.id!, other.vendorId))).toBeNull();
  });

  it('refuses a second lead with the same email in any case for the partner, even archived (unique index, D27)', async () => {
    const first = await stored();
    first.archive(new Date());
    await uow.run(() => leads.update(first));
    const again = Lead.submit(
      {
        vendorId,
        partnerId,
        details: LeadMother.details({ emailAddress: first.details.emailAddress.toUpperCase() }),
      },
      new Date(),
    );
    await expect(uow.run(() => leads.insert(again))).rejects.toBeInstanceOf(DuplicateEntryError);
    expect(await uow.run(() => leads.emailTaken(vendorId, partnerId, first.emailNormalized))).toBe(true);
    expect(await uow.run(() => leads.emailTaken(vendorId, partnerId, first.emailNormalized, first.id))).toBe(
      false,
    );
  });

  it('refuses an update to an email another lead of the partner has', async () => {
    const a = await stored();
    const b = await stored();
    b.update({ emailAddress: a.details.emailAddress }, new Date());
    await expect(uow.run(() => leads.update(b))).rejects.toBeInstanceOf(DuplicateEntryError);
  });

  it('allows the same email for another partner and for another vendor on the same partner (D27)', async () => {
    const a = await stored();
    const otherPartner = await insertConnectedPartner(t.app, vendorId);
    const inOtherPartner = await stored({ emailAddress: a.details.emailAddress }, new Date(), {
      vendorId,
      partnerId: otherPartner,
    });
    const otherVendor = await createVendor(t.app);
    await connectPartner(t.app, otherVendor.vendorId, partnerId);
    const ofOtherVendor = await stored({ emailAddress: a.details.emailAddress }, new Date(), {
      vendorId: otherVendor.vendorId,
      partnerId,
    });

    // three rows, each where it was put, all with the one address
    const rows = [
      [a, vendorId],
      [inOtherPartner, vendorId],
      [ofOtherVendor, otherVendor.vendorId],
    ] as const;
    expect(new Set(rows.map(([lead]) => lead.id)).size).toBe(3);
    for (const [lead, owner] of rows) {
      const found = (await uow.read(() => leads.findForVendor(lead.id!, owner)))!;
      expect([found.vendorId, found.partnerId, found.details.emailAddress]).toEqual([
        owner,
        lead.partnerId,
        a.details.emailAddress,
      ]);
    }
    expect([inOtherPartner.partnerId, ofOtherVendor.partnerId]).toEqual([otherPartner, partnerId]);
  });

  describe('duplicatesAmong (D28)', () => {
    it('flags a lead when another active lead of the vendor, on any partner, has its email', async () => {
      const shared = email('dup');
      const a = await stored({ emailAddress: shared });
      const otherPartner = await insertConnectedPartner(t.app, vendorId);
      const b = await stored({ emailAddress: shared.toLowerCase() }, new Date(), {
        vendorId,
        partnerId: otherPartner,
      });
      const alone = await stored();
      const flagged = await uow.run(() => leads.duplicatesAmong(vendorId, [a.id!, b.id!, alone.id!]));
      expect([...flagged].sort()).toEqual([a.id!, b.id!].sort());
    });

    it('ignores archived leads and other vendors', async () => {
      const shared = email('dup');
      const a = await stored({ emailAddress: shared });
      const archived = await stored({ emailAddress: shared }, new Date(), {
        vendorId,
        partnerId: await insertConnectedPartner(t.app, vendorId),
      });
      archived.archive(new Date());
      await uow.run(() => leads.update(archived));
      const otherVendor = await createVendor(t.app);
      const otherPartner = await insertConnectedPartner(t.app, otherVendor.vendorId);
      await stored({ emailAddress: shared }, new Date(), {
        vendorId: otherVendor.vendorId,
        partnerId: otherPartner,
      });
      expect(await uow.run(() => leads.duplicatesAmong(vendorId, [a.id!]))).toEqual(new Set());
      // the archived lead itself still sees the active one
      expect(await uow.run(() => leads.duplicatesAmong(vendorId, [archived.id!]))).toEqual(
        new Set([archived.id!]),
      );
    });

    it("flags a lead when a contact of the vendor has its email, but not for the lead's own contact", async () => {
      const shared = email('dup');
      const converted = await stored({ emailAddress: shared });
      await uow.run(() => contacts.insertOnce(convert(converted)));
      converted.archive(new Date());
      await uow.run(() => leads.update(converted));
      expect(await uow.run(() => leads.duplicatesAmong(vendorId, [converted.id!]))).toEqual(new Set());
      const other = await stored({ emailAddress: shared }, new Date(), {
        vendorId,
        partnerId: await insertConnectedPartner(t.app, vendorId),
      });
      // other: only the contact shares its email (the converted lead is archived); converted: other is active
      expect(await uow.run(() => leads.duplicatesAmong(vendorId, [converted.id!, other.id!]))).toEqual(
        new Set([converted.id!, other.id!]),
      );
    });

    it('reads the other leads by ix_leads_vendor_email, for a set of ids, for one lead and for a listing (docs/leads-indexes.md)', async () => {
      // MariaDB once chose ix_leads_partner_id (first column vendor_id too) for this subquery of the
      // service's prepared statements, reading every lead of the vendor for each lead of a page: a
      // list request took 80 ms instead of 5. That choice could not be staged here, so this checks
      // what guards against it: the statements the repository sends plan the subquery on the index.
      const a = await stored();
      const b = await stored();
      // LeadQueries sends its SQL through the EntityManager of the transaction, or the data source's
      const sent: { sql: string; params: readonly unknown[] }[] = [];
      const original = EntityManager.prototype.query;
      jest.spyOn(EntityManager.prototype, 'query').mockImplementation(function (
        this: EntityManager,
        sql: string,
        params?: Parameters<EntityManager['query']>[1],
      ) {
        if (sql.includes('FROM leads o')) sent.push({ sql, params: (params as unknown[] | undefined) ?? [] });
        return original.call(this, sql, params);
      });
      try {
        await uow.read(() => leads.duplicatesAmong(vendorId, [a.id!, b.id!]));
        await uow.read(() => leads.findViewForVendor(a.id!, vendorId));
        // a page: with its rows on SQLite, a statement of its own on MySQL
        await uow.read(() => leads.listForPartner(query({ perPage: 2 })));
      } finally {
        jest.restoreAllMocks();
      }
      expect(sent).toHaveLength(3);
      const dataSource = t.app.get(DataSource);
      for (const { sql, params } of sent) {
        const plan = isMysql()
          ? (
              (await dataSource.query(`EXPLAIN ${sql}`, [...params])) as {
                table: string;
                key: string | null;
              }[]
            )
              .filter((row) => row.table === 'o')
              .map((row) => row.key)
          : ((await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, [...params])) as { detail: string }[])
              .map((row) => row.detail)
              .filter((detail) => /\bo\b/.test(detail))
              .map((detail) => /USING (?:COVERING )?INDEX (\w+)/.exec(detail)?.[1] ?? detail);
        expect(plan).toEqual(['ix_leads_vendor_email']);
      }
    });
    it('gives each lead of a listing page its isDuplicate, as for the same ids alone', async () => {
      const partner = await insertConnectedPartner(t.app, vendorId);
      const owner = { vendorId, partnerId: partner };
      const shared = await stored({}, new Date(), owner);
      await stored({ emailAddress: shared.details.emailAddress }); // the same email on another partner
      const converted = await stored({}, new Date(), owner);
      await uow.run(() => contacts.insertOnce(convert(converted))); // its own contact: not a duplicate
      const byContact = await stored({}, new Date(), owner);
      const other = await stored({ emailAddress: byContact.details.emailAddress.toUpperCase() });
      await uow.run(() => contacts.insertOnce(convert(other))); // another lead, and its contact, have its email
      await uow.run(async () => {
        // its twin on the other partner is archived: no longer a duplicate
        const lone = await stored({}, new Date(), owner);
        const twin = await stored({ emailAddress: lone.details.emailAddress });
        twin.archive(new Date());
        await leads.update(twin);
      });
      const page = await uow.read(() => leads.listForPartner(query({ partnerId: partner })));
      const flags = page.leads.map(({ lead, isDuplicate }) => [lead.id, isDuplicate]);
      const ids = page.leads.map(({ lead }) => lead.id!);
      const alone = await uow.read(() => leads.duplicatesAmong(vendorId, ids));
      expect(flags).toEqual(ids.map((id) => [id, alone.has(id)]));
      expect(flags.map(([, isDuplicate]) => isDuplicate)).toEqual([false, true, false, true]);
    });
  });

  describe('contacts', () => {
    it('keeps one contact per lead: a second insert returns the first (UNIQUE lead_id, D32)', async () => {
      const lead = await stored();
      const first = await uow.run(() => contacts.insertOnce(convert(lead)));
      const second = await uow.run(() => contacts.insertOnce(convert(lead)));
      expect(second.id).toBe(first.id);
      expect((await uow.run(() => contacts.findByLead(lead.id!)))!.snapshot()).toEqual(first.snapshot());
    });
  });

  describe('lockForVendor', () => {
    /**
     * MySQL: until the second SELECT ... FOR UPDATE is running on the server (it can only be waiting:
     * the first holds the row and is idle). SQLite: the UnitOfWork has queued it.
     */
    async function untilSecondWaits(): Promise<void> {
      if (!isMysql()) return new Promise((resolve) => setImmediate(resolve));
      const sql =
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE db = DATABASE() AND command IN ('Query', 'Execute') AND info LIKE '%FROM%leads%FOR UPDATE'";
      // bounded: without a lock the second never waits, and the assertion on the events then says so
      for (let attempt = 0; attempt < 300; attempt++) {
        const [row] = (await t.app.get(DataSource).query(sql)) as { n: number | string }[];
        if (Number(row!.n) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    it('makes a second writer of the same lead wait until the first commits', async () => {
      const lead = await stored();
      const events: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const first = uow.run(async () => {
        const mine = await leads.lockForVendor(lead.id!, vendorId);
        events.push('first locked');
        locked();
        await held;
        mine!.reject('first', new Date());
        await leads.update(mine!);
        events.push('first commits');
      });
      await lockTaken;
      const second = uow.run(async () => {
        const theirs = await leads.lockForVendor(lead.id!, vendorId);
        events.push(`second sees ${theirs!.approvalStatus} ${theirs!.rejectComment}`);
      });
      await untilSecondWaits();
      release();
      await Promise.all([first, second]);
      expect(events).toEqual(['first locked', 'first commits', 'second sees REJECTED first']);
    });
  });

  describe('listForPartner', () => {
    let partner: number;
    const day = (iso: string) => new Date(iso);

    beforeAll(async () => {
      partner = await insertConnectedPartner(t.app, vendorId);
      const owner = { vendorId, partnerId: partner };
      await stored(
        { firstName: '50%_off', emailAddress: email('percent') },
        day('2026-05-01T00:00:00.000Z'),
        owner,
      );
      await stored(
        { firstName: '50XYoff', emailAddress: email('plain') },
        day('2026-05-01T23:59:59.999Z'),
        owner,
      );
      await stored(
        { firstName: 'Back\\slash', emailAddress: email('slash') },
        day('2026-05-02T00:00:00.000Z'),
        owner,
      );
      await stored(
        { firstName: 'Bang!', emailAddress: email('bang') },
        day('2026-05-03T12:00:00.000Z'),
        owner,
      );
    });

    const names = async (q: Partial<LeadListQuery>) =>
      (await uow.run(() => leads.listForPartner(query({ partnerId: partner, ...q })))).leads.map(
        ({ lead }) => lead.details.firstName,
      );

    it('matches %, _, \\ and ! in a keyword literally (D33)', async () => {
      expect(await names({ keyword: '50%' })).toEqual(['50%_off']);
      expect(await names({ keyword: '50%_' })).toEqual(['50%_off']);
      expect(await names({ keyword: '50' })).toEqual(['50XYoff', '50%_off']);
      expect(await names({ keyword: 'back\\' })).toEqual(['Back\\slash']);
      expect(await names({ keyword: 'BANG!' })).toEqual(['Bang!']);
      expect(await names({ keyword: '_' })).toEqual([]);
    });

    it('finds a first name with a control character or a space right after the keyword (D33, both engines)', async () => {
      // utf8mb4_bin, PAD SPACE, compared `tab\tbed` below `tab`: outside the index range of
      // `LIKE 'tab%'`, so lost whenever MariaDB walked that range, which it does once the partner has
      // a few leads of other names. The key columns are NO PAD binary (docs/leads-indexes.md).
      const other = await insertConnectedPartner(t.app, vendorId);
      const at = day('2026-05-04T00:00:00.000Z');
      const owner = { vendorId, partnerId: other };
      for (let i = 0; i < 40; i++)
        await stored({ firstName: `Other${i}`, emailAddress: email(`o${i}`) }, at, owner);
      for (const [i, firstName] of ['Tab\tbed', 'Tab\nrow', 'Tab ', 'Tab', 'Tabs'].entries()) {
        await stored({ firstName, emailAddress: email(`zz${i}`) }, at, owner);
      }
      const found = await uow.run(() =>
        leads.listForPartner(query({ partnerId: other, keyword: 'tab', sortBy: 'id', sortDirection: 'asc' })),
      );
      expect(found.leads.map(({ lead }) => lead.details.firstName)).toEqual([
        'Tab\tbed',
        'Tab\nrow',
        'Tab ',
        'Tab',
        'Tabs',
      ]);
      expect(found.totalItems).toBe(5);
    });

    it('finds a first name or an email with a character past U+FFFF right after the keyword (D33, both engines)', async () => {
      // MariaDB builds the index range of `LIKE 'ann%'` on utf8mb4_nopad_bin up to U+FFFF only:
      // `ann😀` fell outside it, with or without a status filter. The keyword is a range on both
      // engines (docs/leads-indexes.md).
      const other = await insertConnectedPartner(t.app, vendorId);
      const at = day('2026-05-04T00:00:00.000Z');
      const owner = { vendorId, partnerId: other };
      for (let i = 0; i < 40; i++)
        await stored({ firstName: `Other${i}`, emailAddress: email(`o${i}`) }, at, owner);
      await stored({ firstName: 'Ann😀', emailAddress: email('a1') }, at, owner);
      await stored({ firstName: 'Zed', emailAddress: `ann\u{1F600}${unique('x')}@example.test` }, at, owner);
      await stored({ firstName: 'Ann\u{10FFFF}', emailAddress: email('a3') }, at, owner);
      await stored({ firstName: 'Anna', emailAddress: email('a4') }, at, owner);
      for (const statuses of [[], [LeadMother.details().status as number]]) {
        const found = await uow.run(() =>
          leads.listForPartner(
            query({ partnerId: other, keyword: 'ann', sortBy: 'id', sortDirection: 'asc', statuses }),
          ),
        );
        expect(found.leads.map(({ lead }) => lead.details.firstName)).toEqual([
          'Ann😀',
          'Zed',
          'Ann\u{10FFFF}',
          'Anna',
        ]);
        expect(found.totalItems).toBe(4);
      }
    });

    it('bounds createdAt by whole UTC days, both inclusive (D33)', async () => {
      expect(
        await names({
          createdFrom: day('2026-05-01T00:00:00.000Z'),
          createdUntil: day('2026-05-02T00:00:00.000Z'),
        }),
      ).toEqual(['50XYoff', '50%_off']);
      expect(await names({ createdFrom: day('2026-05-02T00:00:00.000Z') })).toEqual(['Bang!', 'Back\\slash']);
    });

    it('counts every match, not only the page', async () => {
      const result = await uow.run(() =>
        leads.listForPartner(query({ partnerId: partner, perPage: 1, page: 1, sortDirection: 'asc' })),
      );
      expect(result.totalItems).toBe(4);
      expect(result.leads.map(({ lead }) => lead.details.firstName)).toEqual(['50XYoff']);
    });
  });
});
