import BetterSqlite3 from 'better-sqlite3';
import * as mysql from 'mysql2/promise';
import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { LeadRepository } from '../../src/leads/application/lead-repository';
import { Lead } from '../../src/leads/domain/lead';
import { PartnerRepository } from '../../src/partners/application/partner-repository';
import { PartnerUserRepository } from '../../src/partners/application/partner-user-repository';
import { WebhookDeliveries } from '../../src/webhooks/application/webhook-deliveries';
import { WebhookEndpoints } from '../../src/webhooks/application/webhook-endpoints';
import { WebhookEvents } from '../../src/webhooks/application/webhook-events';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { SqlDatabase } from '../../src/shared/infrastructure/database/sql-database';
import { insertConnectedPartner } from '../support/lead-fixtures';
import { LeadMother } from '../support/lead-mother';
import { PartnerAggregateMother } from '../support/partner-aggregate-mother';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { TestApp, createTestApp, createVendor, isMysql, unique } from '../support/test-app';

/**
 * UnitOfWork.read on a database file (docs/performance.md): SQLite reads run on a second, read-only
 * connection, MySQL reads outside any transaction (READ COMMITTED). Either way a read neither waits
 * for a write transaction that is still open nor sees its rows.
 */
describe('reads beside an open write transaction', () => {
  let scratch: ScratchDatabase;
  let t: TestApp;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    t = await createTestApp({ env: { DATABASE_URL: scratch.url } });
  });
  afterAll(async () => {
    await t.close();
    await scratch.drop();
  });

  /**
   * A new lead inserted in a unit of work that stays open until `release()`; `seenInside` is what a
   * read inside that unit found once the row was written.
   */
  async function holdInsert(tag: string) {
    const uow = t.app.get(UnitOfWork);
    const leads = t.app.get(LeadRepository);
    const { vendorId } = await createVendor(t.app);
    const partnerId = await insertConnectedPartner(t.app, vendorId);
    const lead = Lead.submit(
      { vendorId, partnerId, details: LeadMother.details({ emailAddress: `${unique(tag)}@example.test` }) },
      new Date(),
    );
    let inserted!: (seen: Lead | null) => void;
    const insertDone = new Promise<Lead | null>((resolve) => (inserted = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = uow.run(async () => {
      await leads.insert(lead);
      inserted(await leads.findForVendor(lead.id!, vendorId));
      await held;
    });
    const seenInside = await insertDone;
    const find = () => leads.findForVendor(lead.id!, vendorId);
    return { uow, lead, seenInside, find, release: () => (release(), writing) };
  }

  it('answers at once with what is committed, and sees the write once it commits', async () => {
    if (!isMysql()) expect(t.app.get(SqlDatabase).hasReadConnection).toBe(true);
    const { uow, lead, find, release } = await holdInsert('r');

    expect(await uow.read(find)).toBeNull();

    await release();
    expect((await uow.read(find))?.snapshot()).toEqual(lead.snapshot());
  });

  it('gives a read outside any unit of work only what is committed, never the open write transaction (rule 3)', async () => {
    const { lead, seenInside, find, release } = await holdInsert('o');
    // inside the unit the writing connection answers, with the unit's own uncommitted row
    expect(seenInside).not.toBeNull();

    // no UnitOfWork.read: the repository is called as a background job or a health check would
    expect(await find()).toBeNull();

    await release();
    expect((await find())?.snapshot()).toEqual(lead.snapshot());
  });

  it('moves the commit version with every commit, by this process or another, and with nothing else (rule 15)', async () => {
    const uow = t.app.get(UnitOfWork);
    if (isMysql()) {
      expect(uow.commitVersion()).toBeNull(); // MySQL has no such number: keys are looked up every time
      return;
    }
    const { find, release } = await holdInsert('v'); // commits a vendor and a partner, then holds
    const before = uow.commitVersion();
    expect(before).toEqual(expect.any(Number));
    await uow.read(find);
    const unchanged = uow.commitVersion(); // reads and a write still open change nothing
    await release();
    expect(unchanged).toBe(before);
    const committed = uow.commitVersion();
    expect(committed).not.toBe(before);
    expect(uow.commitVersion()).toBe(committed);

    const other = new BetterSqlite3(scratch.url.slice('sqlite:'.length));
    try {
      other.prepare("UPDATE vendors SET name = name || '.'").run(); // another process's commit
    } finally {
      other.close();
    }
    // within this turn of the event loop the read connection keeps its snapshot (rule 19) ...
    expect(uow.commitVersion()).toBe(committed);
    // ... which the next request's arrival ends
    uow.freshReads();
    expect(uow.commitVersion()).not.toBe(committed);
  });

  describe('one read transaction per turn of the event loop (rule 19)', () => {
    const nameSql = 'SELECT first_name AS name FROM leads WHERE id = ?';
    /** A committed lead named `Before`. */
    async function committedLead(): Promise<{ id: number; vendorId: number }> {
      const { vendorId } = await createVendor(t.app);
      const partnerId = await insertConnectedPartner(t.app, vendorId);
      const lead = Lead.submit(
        {
          vendorId,
          partnerId,
          details: LeadMother.details({ firstName: 'Before', emailAddress: `${unique('t')}@example.test` }),
        },
        new Date(),
      );
      await t.app.get(UnitOfWork).run(() => t.app.get(LeadRepository).insert(lead));
      return { id: lead.id!, vendorId };
    }
    const name = async (id: number) =>
      (await t.app.get(SqlDatabase).one<{ name: string }>(nameSql, [id]))?.name;
    /** Renames the lead through a connection of its own, as another process would; synchronous on SQLite. */
    async function renameElsewhere(id: number, to: string): Promise<void> {
      if (isMysql()) {
        const other = await mysql.createConnection(scratch.url);
        try {
          await other.execute('UPDATE leads SET first_name = ? WHERE id = ?', [to, id]);
        } finally {
          await other.end();
        }
        return;
      }
      const other = new BetterSqlite3(scratch.url.slice('sqlite:'.length));
      try {
        other.prepare('UPDATE leads SET first_name = ? WHERE id = ?').run(to, id);
      } finally {
        other.close();
      }
    }

    it('keeps what the turn read until a request arrives, which sees every earlier commit (D9)', async () => {
      const { id } = await committedLead();
      const uow = t.app.get(UnitOfWork);
      if (isMysql()) {
        // MySQL's reads take no snapshot: each statement sees the last commit
        expect(await name(id)).toBe('Before');
        await renameElsewhere(id, 'After');
        expect(await name(id)).toBe('After');
        return;
      }
      const before = name(id); // the turn's first read begins the read transaction
      const renamed = renameElsewhere(id, 'After'); // committed by now (SQLite is synchronous)
      const sameTurn = name(id);
      uow.freshReads(); // a request arrives
      const afterArrival = name(id);
      await renamed;
      expect([await before, await sameTurn, await afterArrival]).toEqual(['Before', 'Before', 'After']);
    });

    it('ends the read transaction with the turn', async () => {
      const { id } = await committedLead();
      expect(await name(id)).toBe('Before');
      await renameElsewhere(id, 'After');
      await new Promise((resolve) => setImmediate(resolve));
      expect(await name(id)).toBe('After');
    });

    it('sees what this process commits at once: a unit of work, and a write outside one', async () => {
      const { id } = await committedLead();
      const db = t.app.get(SqlDatabase);
      const rename = (to: string) => db.run('UPDATE leads SET first_name = ? WHERE id = ?', [to, id]);
      if (!isMysql()) {
        // the group commit's two steps, in one turn: a read between the unit and its COMMIT sees
        // only what is committed, and the read after the COMMIT sees the unit
        const seen = [await name(id)];
        await t.app.get(ClsService).run(() => db.sqliteUnit(() => rename('Unit')));
        seen.push(await name(id));
        await db.commitSqliteBatch();
        seen.push(await name(id));
        expect(seen).toEqual(['Before', 'Before', 'Unit']);
      }
      await t.app.get(UnitOfWork).run(() => rename('Run'));
      expect(await name(id)).toBe('Run');
      // a write through TypeORM outside any unit of work commits at once, on the writing connection
      expect(await name(id)).toBe('Run');
      await t.app.get(DataSource).query('UPDATE leads SET first_name = ? WHERE id = ?', ['Direct', id]);
      expect(await name(id)).toBe('Direct');
    });

    it('refuses a key revoked by another process to a request arriving in the same turn (D9)', async () => {
      const { vendorId, apiKey } = await createVendor(t.app);
      const get = () =>
        t.app.inject({ method: 'GET', url: '/api/v1/vendors/nothing', headers: { 'x-api-key': apiKey } });
      expect((await get()).statusCode).toBe(404); // accepted, and remembered as valid (rule 15)
      if (isMysql()) {
        const other = await mysql.createConnection(scratch.url);
        await other.execute('UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE vendor_id = ?', [
          vendorId,
        ]);
        await other.end();
        expect((await get()).statusCode).toBe(401);
        return;
      }
      expect(t.app.get(UnitOfWork).commitVersion()).toEqual(expect.any(Number)); // a read of this turn
      const other = new BetterSqlite3(scratch.url.slice('sqlite:'.length));
      try {
        other.prepare("UPDATE api_keys SET revoked_at = datetime('now') WHERE vendor_id = ?").run(vendorId);
      } finally {
        other.close();
      }
      const refused = get(); // arrives in this turn, while the turn's read transaction is open
      expect((await refused).statusCode).toBe(401);
    });
  });

  it('gives the partner, partner user, webhook endpoint and delivery reads only what is committed (rule 3)', async () => {
    const uow = t.app.get(UnitOfWork);
    const partners = t.app.get(PartnerRepository);
    const users = t.app.get(PartnerUserRepository);
    const endpoints = t.app.get(WebhookEndpoints);
    const deliveries = t.app.get(WebhookDeliveries);
    const { vendorId } = await createVendor(t.app);
    const now = new Date();
    const email = `${unique('c')}@p.test`;
    let written!: (ids: { partnerId: number; userId: number; endpointId: number }) => void;
    const done = new Promise<{ partnerId: number; userId: number; endpointId: number }>((r) => (written = r));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = uow.run(async () => {
      const partner = await partners.insert(
        PartnerAggregateMother.invited(now, { contactEmailAddress: email }),
      );
      await partners.connect(vendorId, partner, now);
      const [user] = await users.insertAll([
        PartnerAggregateMother.registered(partner.id, now, { emailAddress: email }),
      ]);
      const endpoint = await endpoints.add({
        vendorId,
        url: 'https://hooks.example.test/in',
        events: ['*'],
        description: null,
        secret: 'whsec_test',
        createdAt: now,
        disabledAt: null,
      });
      await t.app.get(WebhookEvents).publish(vendorId, { type: 'partner.invited', partner, users: [user!] });
      written({ partnerId: partner.id, userId: user!.id, endpointId: endpoint.id });
      await held;
    });
    const { partnerId, userId, endpointId } = await done;
    const reads = () =>
      uow.read(async () => ({
        byId: (await partners.findById(partnerId)) !== null,
        connected: (await partners.findConnected(vendorId, partnerId)) !== null,
        user: (await users.findById(userId)) !== null,
        byEmail: (await users.findByEmail(email.toLowerCase())) !== null,
        taken: (await users.takenEmails([email.toLowerCase()])).size,
        endpoints: (await endpoints.listForVendor(vendorId)).length,
        endpoint: (await endpoints.findForVendor(endpointId, vendorId)) !== null,
        deliveries: (await deliveries.listForEndpoint(endpointId, 10)).length,
      }));

    expect(await reads()).toEqual({
      byId: false,
      connected: false,
      user: false,
      byEmail: false,
      taken: 0,
      endpoints: 0,
      endpoint: false,
      deliveries: 0,
    });

    release();
    await writing;
    expect(await reads()).toEqual({
      byId: true,
      connected: true,
      user: true,
      byEmail: true,
      taken: 1,
      endpoints: 1,
      endpoint: true,
      deliveries: 1,
    });
  });
});

describe('SqlDatabase on SQLite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_URL: 'sqlite::memory:' } });
  });
  afterAll(() => t.close());

  it('refuses a write outside UnitOfWork.run, where it would join whatever transaction is open', async () => {
    const db = t.app.get(SqlDatabase);
    await expect(db.run('UPDATE vendors SET name = name WHERE id = 0')).rejects.toThrow(
      'a write must run inside UnitOfWork.run',
    );
    await expect(
      t.app.get(UnitOfWork).run(() => db.run('UPDATE vendors SET name = name WHERE id = 0')),
    ).resolves.toEqual({
      affected: 0,
      insertId: expect.any(Number),
    });
  });

  it('has no second connection for an in-memory database, so its reads wait for the writer', () => {
    expect(t.app.get(SqlDatabase).hasReadConnection).toBe(false);
  });

  it('tells no commit version for an in-memory database, whose one connection cannot see its own commits counted', () => {
    expect(t.app.get(UnitOfWork).commitVersion()).toBeNull();
  });
});
