import { DataSource, EntityManager } from 'typeorm';
import { LeadRepository } from '../../src/leads/application/lead-repository';
import { Lead } from '../../src/leads/domain/lead';
import { LeadListQuery } from '../../src/leads/domain/lead-list-query';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { insertConnectedPartner } from '../support/lead-fixtures';
import { LeadMother } from '../support/lead-mother';
import { TestApp, createTestApp, createVendor, unique } from '../support/test-app';
import { listQuery } from '../unit/leads/setup';

/**
 * docs/leads-indexes.md: a keyword listing is driven by the keyword's two index ranges (first name,
 * email), so its count and its page cost what the matches cost, not the partner's size. Checked on
 * SQLite's plans (EXPLAIN QUERY PLAN): SQLite keeps no statistics and cannot use these indexes for
 * its case-insensitive LIKE, so without this form it walks the partner's whole listing index and
 * tests every row. On MySQL STRAIGHT_JOIN fixes the same order; the benchmark times it there.
 */
describe('keyword listing plan on SQLite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The statements (with their parameters) LeadQueries sends for one listing, and its result. */
  async function recordListing(vendorId: number, partnerId: number, overrides: Partial<LeadListQuery>) {
    const statements: [string, readonly unknown[]][] = [];
    const original = EntityManager.prototype.query;
    jest.spyOn(EntityManager.prototype, 'query').mockImplementation(function (
      this: EntityManager,
      sql: string,
      params?: Parameters<EntityManager['query']>[1],
    ) {
      statements.push([sql, (params as unknown[] | undefined) ?? []]);
      return original.call(this, sql, params);
    });
    try {
      const result = await t.app
        .get(LeadRepository)
        .listForPartner(listQuery(vendorId, partnerId, overrides));
      return { result, statements };
    } finally {
      jest.restoreAllMocks();
    }
  }

  it('reads the keyword ranges first and each match by its id, for the count and the page', async () => {
    const { vendorId } = await createVendor(t.app);
    const partnerId = await insertConnectedPartner(t.app, vendorId);
    const leads = t.app.get(LeadRepository);
    await t.app.get(UnitOfWork).run(async () => {
      for (const firstName of ['Anna', 'Bob', 'Annette', 'Carl']) {
        const details = LeadMother.details({ firstName, emailAddress: `${unique(firstName)}@example.test` });
        await leads.insert(Lead.submit({ vendorId, partnerId, details }, new Date()));
      }
    });
    const {
      result: { leads: page, totalItems },
      statements,
    } = await recordListing(vendorId, partnerId, { keyword: 'ANN' });
    expect(totalItems).toBe(2);
    expect(page.map(({ lead }) => lead.snapshot().firstName).sort()).toEqual(['Anna', 'Annette']);

    const keyed = statements.filter(([sql]) => sql.includes('first_name_normalized >='));
    expect(keyed.map(([sql]) => (sql.includes('COUNT(*)') ? 'count' : 'page'))).toEqual(['count', 'page']);
    const dataSource = t.app.get(DataSource);
    for (const [sql, params] of keyed) {
      const plan = (
        (await dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, [...params])) as { detail: string }[]
      ).map((row) => row.detail);
      expect(plan).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^SEARCH k USING .*ix_leads_partner_first_name .*first_name_normalized>\?/),
          expect.stringMatching(/^SEARCH k USING .*ux_leads_partner_email .*email_normalized>\?/),
          'SCAN m',
        ]),
      );
      // each match is then read by its id; the partner's listing indexes are never walked
      expect(plan.filter((d) => d.startsWith('SEARCH f') || d.startsWith('SCAN f'))).toEqual([
        expect.stringMatching(/(rowid=\?|id=\?)/),
      ]);
      expect(plan.join('\n')).not.toMatch(/ix_leads_partner_(created|updated|status|source|approval)/);
    }
  });

  it('leaves a keyword with a status filter to the status range, the prefix tested on each of its rows', async () => {
    const { vendorId } = await createVendor(t.app);
    const partnerId = await insertConnectedPartner(t.app, vendorId);
    const { statements } = await recordListing(vendorId, partnerId, { statuses: [1], keyword: 'ann' });
    const [count] = statements.map(([sql]) => sql).filter((sql) => sql.includes('COUNT(*)'));
    expect(count).toContain('f.first_name_normalized >= ? AND f.first_name_normalized < ?');
    expect(count).not.toContain('UNION');
    const plan = (
      (await t.app
        .get(DataSource)
        .query(`EXPLAIN QUERY PLAN ${count}`, [vendorId, partnerId, 0, 1, 'ann', 'ano', 'ann', 'ano'])) as {
        detail: string;
      }[]
    ).map((row) => row.detail);
    expect(plan).toEqual([expect.stringMatching(/^SEARCH f USING .*ix_leads_partner_status \(.*status=\?/)]);
  });
});
