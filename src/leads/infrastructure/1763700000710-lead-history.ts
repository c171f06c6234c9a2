import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * A lead's history (X12, docs/lead-history.md): one row per change, written in the transaction of
 * the change. Read by lead, oldest first: `ix_lead_history_lead (lead_id)` carries the row id (the
 * InnoDB primary key, SQLite's rowid), so its entries are in (lead_id, id) order and a lead's rows
 * come in the order they were written without a sort; one column keeps the index small for the
 * bulk import, which writes a row per lead. `changed_fields` holds the Lead field names joined by
 * commas ('' when none). Leads that existed before this table get no rows: their history starts with
 * their next change. Written in the quoted SQLite form TypeORM reads back (docs/architecture.md,
 * "Schema: migrations and entities"); the entity is LeadHistoryOrmEntity.
 */
export class LeadHistory1763700000710 implements MigrationInterface {
  name = 'LeadHistory1763700000710';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE lead_history (
        ${d.autoId()},
        lead_id ${d.bigint} NOT NULL,
        at ${d.datetime} NOT NULL,
        action VARCHAR(16) NOT NULL,
        approval_status_from VARCHAR(16) NULL,
        approval_status_to VARCHAR(16) NOT NULL,
        archived ${d.bool} NOT NULL,
        comment ${d.text} NULL,
        changed_fields VARCHAR(512) NOT NULL,
        api_key_prefix VARCHAR(16) NULL,
        ${d.foreignKey('fk_lead_history_lead', ['lead_id'], 'leads', ['id'])}
      )${d.tableOptions}`,
      `CREATE INDEX ix_lead_history_lead ON lead_history (lead_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE lead_history']);
  }
}
