import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * Idempotency keys and their stored responses (X1-X5, docs/idempotency.md). One unique index on
 * (vendor, key) decides which of two concurrent requests holds a key, on any instance. Keys are
 * visible ASCII (X1) and compared byte for byte (`utf8mb4_bin` on MySQL, NO PAD since migration
 * 1763700000900; SQLite compares bytes).
 * Written in the quoted SQLite form TypeORM reads back (docs/architecture.md, "Schema: migrations and
 * entities"); the entity is IdempotencyKeyOrmEntity.
 */
export class IdempotencyKeys1763700000610 implements MigrationInterface {
  name = 'IdempotencyKeys1763700000610';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    // A stored body: 100 partner users, or a lead with three 5,000-character fields, pass 64 KiB.
    const body = d.engine === 'mysql' ? 'MEDIUMTEXT' : 'TEXT';
    await execute(queryRunner, [
      `CREATE TABLE idempotency_keys (
        ${d.autoId()},
        vendor_id ${d.bigint} NOT NULL,
        idempotency_key ${d.key} NOT NULL,
        fingerprint ${d.char(64)} NOT NULL,
        claim_token ${d.char(36)} NOT NULL,
        state VARCHAR(16) NOT NULL,
        lease_until ${d.datetime} NULL,
        created_at ${d.datetime} NOT NULL,
        expires_at ${d.datetime} NOT NULL,
        response_status ${d.int} NULL,
        response_body ${body} NULL,
        ${d.foreignKey('fk_idempotency_keys_vendor', ['vendor_id'], 'vendors', ['id'])}
      )${d.tableOptions}`,
      `CREATE UNIQUE INDEX ux_idempotency_keys_vendor_key ON idempotency_keys (vendor_id, idempotency_key)`,
      `CREATE INDEX ix_idempotency_keys_expires ON idempotency_keys (expires_at)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE idempotency_keys']);
  }
}
