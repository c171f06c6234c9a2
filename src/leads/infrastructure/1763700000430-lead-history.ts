import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * A lead's history (X12, docs/lead-history.md): one row per change, written in the transaction of
 * the change. Read by lead, oldest first: `ix_lead_history_lead (lead_id, id)` gives a lead's rows
 * in the order they were written. `changed_fields` holds the Lead field names joined by commas
 * ('' when none). Leads that existed before this table get no rows: their history starts with
 * their next change.
 */
export class LeadHistory1763700000430 implements MigrationInterface {
  name = 'LeadHistory1763700000430';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE lead_history (
        id ${d.id},
        lead_id ${d.bigint} NOT NULL,
        at ${d.datetime} NOT NULL,
        action VARCHAR(16) NOT NULL,
        approval_status_from VARCHAR(16) NULL,
        approval_status_to VARCHAR(16) NOT NULL,
        archived ${d.bool} NOT NULL,
        comment ${d.text} NULL,
        changed_fields VARCHAR(512) NOT NULL,
        api_key_prefix VARCHAR(16) NULL,
        CONSTRAINT fk_lead_history_lead FOREIGN KEY (lead_id) REFERENCES leads (id)
      )${d.tableOptions}`,
      `CREATE INDEX ix_lead_history_lead ON lead_history (lead_id, id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE lead_history']);
  }
}
