import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/** Vendors, their API keys (hash only, D9) and their lead source/status options (D15). */
export class Vendors1763700000000 implements MigrationInterface {
  name = 'Vendors1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE vendors (
        id ${d.id},
        name ${d.varchar} NOT NULL,
        created_at ${d.datetime} NOT NULL
      )${d.tableOptions}`,
      `CREATE TABLE api_keys (
        id ${d.id},
        vendor_id ${d.bigint} NOT NULL,
        key_hash CHAR(64) NOT NULL,
        key_prefix VARCHAR(16) NOT NULL,
        created_at ${d.datetime} NOT NULL,
        revoked_at ${d.datetime} NULL,
        last_used_at ${d.datetime} NULL,
        CONSTRAINT fk_api_keys_vendor FOREIGN KEY (vendor_id) REFERENCES vendors (id)
      )${d.tableOptions}`,
      `CREATE UNIQUE INDEX ux_api_keys_key_hash ON api_keys (key_hash)`,
      `CREATE INDEX ix_api_keys_vendor ON api_keys (vendor_id)`,
      `CREATE TABLE lead_options (
        id ${d.id},
        vendor_id ${d.bigint} NOT NULL,
        kind VARCHAR(16) NOT NULL,
        label ${d.varchar} NOT NULL,
        created_at ${d.datetime} NOT NULL,
        CONSTRAINT fk_lead_options_vendor FOREIGN KEY (vendor_id) REFERENCES vendors (id)
      )${d.tableOptions}`,
      `CREATE INDEX ix_lead_options_vendor_kind ON lead_options (vendor_id, kind)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE lead_options', 'DROP TABLE api_keys', 'DROP TABLE vendors']);
  }
}
