import { LeadRepository } from '../../src/leads/application/lead-repository';
import { Lead } from '../../src/leads/domain/lead';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { SqlDatabase } from '../../src/shared/infrastructure/database/sql-database';
import { insertConnectedPartner } from '../support/lead-fixtures';
import { LeadMother } from '../support/lead-mother';
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
});
