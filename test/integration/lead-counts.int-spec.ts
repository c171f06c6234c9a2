import { LeadRepository } from '../../src/leads/application/lead-repository';
import { Lead } from '../../src/leads/domain/lead';
import { LeadListQuery } from '../../src/leads/domain/lead-list-query';
import { ApprovalStatus } from '../../src/leads/domain/lead-transitions';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { DataSource } from 'typeorm';
import { MigrationRunner } from '../../src/shared/infrastructure/database/migration-runner';
import { insertConnectedPartner } from '../support/lead-fixtures';
import { createScratchDatabase } from '../support/scratch-database';
import { LeadMother } from '../support/lead-mother';
import { TestApp, createTestApp, createVendor, unique } from '../support/test-app';

/**
 * totalItems of a listing without row filters comes from the maintained lead_counts
 * (docs/performance.md); these tests compare it with COUNT(*) after every kind of write.
 */
describe('maintained lead counts', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let leads: LeadRepository;
  let dataSource: DataSource;
  let vendorId: number;
  let partnerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    uow = t.app.get(UnitOfWork);
    leads = t.app.get(LeadRepository);
    dataSource = t.app.get(DataSource);
    vendorId = (await createVendor(t.app)).vendorId;
    partnerId = await insertConnectedPartner(t.app, vendorId);
  });
  afterAll(() => t.close());

  const query = (archived: boolean, approvalStatus?: ApprovalStatus): LeadListQuery => ({
    vendorId,
    partnerId,
    page: 0,
    perPage: 1,
    sortBy: 'createdAt',
    sortDirection: 'desc',
    statuses: [],
    sources: [],
    archived,
    approvalStatus,
  });

  async function counted(archived: boolean, approvalStatus?: ApprovalStatus): Promise<number> {
    return (await uow.read(() => leads.listForPartner(query(archived, approvalStatus)))).totalItems;
  }

  async function actual(archived: boolean, approvalStatus?: ApprovalStatus): Promise<number> {
    const bucket = [vendorId, partnerId, Number(archived)];
    const [row] = await uow.read(
      () =>
        dataSource.query(
          `SELECT COUNT(*) AS n FROM leads WHERE vendor_id = ? AND partner_id = ? AND archived = ?${
            approvalStatus ? ' AND approval_status = ?' : ''
          }`,
          approvalStatus ? [...bucket, approvalStatus] : bucket,
        ) as Promise<{ n: number | string }[]>,
    );
    return Number(row!.n);
  }

  async function expectCountsExact(): Promise<void> {
    for (const archived of [false, true]) {
      expect(await counted(archived)).toBe(await actual(archived));
      for (const status of ['PENDING', 'APPROVED', 'REJECTED'] as const) {
        expect(await counted(archived, status)).toBe(await actual(archived, status));
      }
    }
  }

  async function created(): Promise<Lead> {
    const lead = Lead.submit(
      { vendorId, partnerId, details: LeadMother.details({ emailAddress: `${unique('c')}@example.test` }) },
      new Date(),
    );
    await uow.run(() => leads.insert(lead));
    return lead;
  }

  async function changed(leadId: number, change: (lead: Lead) => unknown): Promise<void> {
    await uow.run(async () => {
      const lead = (await leads.lockForVendor(leadId, vendorId))!;
      change(lead);
      await leads.update(lead);
    });
  }

  it('stays exact through creates, approvals, rejections, archiving and edits', async () => {
    const made = [];
    for (let i = 0; i < 40; i++) made.push(await created());
    await expectCountsExact();
    for (const [i, lead] of made.entries()) {
      const now = new Date();
      if (i % 4 === 0) await changed(lead.id!, (l) => l.approve(now));
      if (i % 4 === 1) await changed(lead.id!, (l) => l.reject('no', now));
      if (i % 5 === 0) await changed(lead.id!, (l) => l.archive(now));
      if (i % 3 === 0) await changed(lead.id!, (l) => l.update({ city: `City ${i}` }, now));
    }
    await expectCountsExact();
    expect(await counted(false)).toBeGreaterThan(0);
    expect(await counted(true, 'APPROVED')).toBeGreaterThan(0);
  });

  it('stays exact when writes of one partner run concurrently', async () => {
    const made = await Promise.all(Array.from({ length: 30 }, () => created()));
    await Promise.all(
      made.flatMap((lead, i) => [
        changed(lead.id!, (l) => (i % 2 ? l.approve(new Date()) : l.reject(null, new Date()))),
        changed(lead.id!, (l) => l.archive(new Date())),
      ]),
    );
    await expectCountsExact();
  });

  it('does not count a write that was rolled back', async () => {
    const before = await counted(false);
    await expect(
      uow.run(async () => {
        const lead = Lead.submit(
          {
            vendorId,
            partnerId,
            details: LeadMother.details({ emailAddress: `${unique('r')}@example.test` }),
          },
          new Date(),
        );
        await leads.insert(lead);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await counted(false)).toBe(before);
    await expectCountsExact();
  });
});

describe('migration LeadCounts1763700000420', () => {
  it('counts the leads that existed before it', async () => {
    const scratch = await createScratchDatabase();
    const t = await createTestApp({ env: { DATABASE_URL: scratch.url } });
    try {
      const uow = t.app.get(UnitOfWork);
      const leads = t.app.get(LeadRepository);
      const { vendorId } = await createVendor(t.app);
      const partnerId = await insertConnectedPartner(t.app, vendorId);
      for (let i = 0; i < 20; i++) {
        const lead = Lead.submit(
          {
            vendorId,
            partnerId,
            details: LeadMother.details({ emailAddress: `${unique('m')}@example.test` }),
          },
          new Date(),
        );
        if (i % 3 === 0) lead.approve(new Date());
        if (i % 4 === 0) lead.archive(new Date());
        await uow.run(() => leads.insert(lead));
      }
      const dataSource = t.app.get(DataSource);
      const applied = async () =>
        ((await dataSource.query('SELECT name FROM migrations')) as { name: string }[]).map((m) => m.name);
      while ((await applied()).includes('LeadCounts1763700000420')) {
        await dataSource.undoLastMigration({ transaction: 'each' });
      }
      await t.app.get(MigrationRunner).run();

      const total = async (archived: boolean, approvalStatus?: ApprovalStatus) =>
        (
          await uow.read(() =>
            leads.listForPartner({
              vendorId,
              partnerId,
              page: 0,
              perPage: 1,
              sortBy: 'id',
              sortDirection: 'asc',
              statuses: [],
              sources: [],
              archived,
              approvalStatus,
            }),
          )
        ).totalItems;
      expect(await total(false)).toBe(15);
      expect(await total(true)).toBe(5);
      expect(await total(false, 'APPROVED')).toBe(5);
      expect(await total(true, 'APPROVED')).toBe(2);
      expect(await total(false, 'PENDING')).toBe(10);
    } finally {
      await t.close();
      await scratch.drop();
    }
  });
});
