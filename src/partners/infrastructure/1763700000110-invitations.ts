import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * One row per invite email sent (D36): the user, the vendor whose portal it opens, the SHA-256 hash of
 * the single-use token in the accept link (the token itself is never stored here), and when it was used.
 */
export class Invitations1763700000110 implements MigrationInterface {
  name = 'Invitations1763700000110';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE invitations (
        id ${d.id},
        user_id ${d.bigint} NOT NULL,
        vendor_id ${d.bigint} NOT NULL,
        token_hash CHAR(64) NOT NULL,
        created_at ${d.datetime} NOT NULL,
        used_at ${d.datetime} NULL,
        CONSTRAINT fk_invitations_user FOREIGN KEY (user_id) REFERENCES partner_users (id),
        CONSTRAINT fk_invitations_vendor FOREIGN KEY (vendor_id) REFERENCES vendors (id)
      )${d.tableOptions}`,
      `CREATE UNIQUE INDEX ux_invitations_token_hash ON invitations (token_hash)`,
      `CREATE INDEX ix_invitations_user_vendor ON invitations (user_id, vendor_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE invitations']);
  }
}
