import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * Maintained counts of a partner's leads per (archived, approvalStatus), so that `totalItems` of a
 * listing without row filters is exact and costs the same at ten leads or a million
 * (docs/performance.md). Each change of a lead adjusts its bucket in the same transaction. A
 * bucket is split into 16 slots (by lead id) so that concurrent writes of one partner's leads on
 * MySQL rarely wait for the same counter row; a count is the sum of its slots.
 *
 * Also the indexes that let a filtered listing cost its index range, not the partner's size:
 * approvalStatus, status and source each lead an index after (vendor, partner, archived), ending in
 * (created_at, id) for the default order (docs/leads-indexes.md).
 */
export class LeadCounts1763700000420 implements MigrationInterface {
  name = 'LeadCounts1763700000420';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE lead_counts (
        vendor_id ${d.bigint} NOT NULL,
        partner_id ${d.bigint} NOT NULL,
        archived ${d.bool} NOT NULL,
        approval_status VARCHAR(16) NOT NULL,
        slot ${d.int} NOT NULL,
        total ${d.bigint} NOT NULL,
        PRIMARY KEY (vendor_id, partner_id, archived, approval_status, slot)
      )${d.tableOptions}`,
      `INSERT INTO lead_counts (vendor_id, partner_id, archived, approval_status, slot, total)
        SELECT vendor_id, partner_id, archived, approval_status, id % 16, COUNT(*)
          FROM leads GROUP BY vendor_id, partner_id, archived, approval_status, id % 16`,
      `CREATE INDEX ix_leads_partner_approval ON leads (vendor_id, partner_id, archived, approval_status, created_at, id)`,
      `CREATE INDEX ix_leads_partner_status ON leads (vendor_id, partner_id, archived, status, created_at, id)`,
      `CREATE INDEX ix_leads_partner_source ON leads (vendor_id, partner_id, archived, source, created_at, id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const on = dialectOf(queryRunner).engine === 'mysql' ? ' ON leads' : '';
    await execute(queryRunner, [
      ...['ix_leads_partner_source', 'ix_leads_partner_status', 'ix_leads_partner_approval'].map(
        (index) => `DROP INDEX ${index}${on}`,
      ),
      'DROP TABLE lead_counts',
    ]);
  }
}
