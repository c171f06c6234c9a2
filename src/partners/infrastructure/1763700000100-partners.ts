import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * Partners, their users and the vendor-partner connection (D20: a partner may be connected to
 * several vendors). A user's email is unique across all users, case-insensitively (D13): the unique
 * index is on the lower-cased copy, compared byte for byte.
 */
export class Partners1763700000100 implements MigrationInterface {
  name = 'Partners1763700000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE partners (
        id ${d.id},
        company_name ${d.varchar} NOT NULL,
        description ${d.text} NULL,
        website ${d.varchar} NULL,
        country ${d.varchar} NULL,
        company_size ${d.varchar} NULL,
        contact_name ${d.varchar} NOT NULL,
        contact_email_address ${d.varchar} NOT NULL,
        contact_phone ${d.varchar} NULL,
        contact_role ${d.varchar} NULL,
        type VARCHAR(16) NULL,
        invited_at ${d.datetime} NULL,
        created_at ${d.datetime} NOT NULL
      )${d.tableOptions}`,
      `CREATE TABLE partner_users (
        id ${d.id},
        partner_id ${d.bigint} NOT NULL,
        first_name ${d.varchar} NOT NULL,
        last_name ${d.varchar} NULL,
        email_address ${d.varchar} NOT NULL,
        email_normalized ${d.key} NOT NULL,
        phone_number ${d.varchar} NULL,
        job_title ${d.varchar} NULL,
        last_active_at ${d.datetime} NULL,
        created_at ${d.datetime} NOT NULL,
        CONSTRAINT fk_partner_users_partner FOREIGN KEY (partner_id) REFERENCES partners (id)
      )${d.tableOptions}`,
      `CREATE UNIQUE INDEX ux_partner_users_email ON partner_users (email_normalized)`,
      `CREATE INDEX ix_partner_users_partner ON partner_users (partner_id, id)`,
      `CREATE TABLE vendor_partners (
        vendor_id ${d.bigint} NOT NULL,
        partner_id ${d.bigint} NOT NULL,
        created_at ${d.datetime} NOT NULL,
        PRIMARY KEY (vendor_id, partner_id),
        CONSTRAINT fk_vendor_partners_vendor FOREIGN KEY (vendor_id) REFERENCES vendors (id),
        CONSTRAINT fk_vendor_partners_partner FOREIGN KEY (partner_id) REFERENCES partners (id)
      )${d.tableOptions}`,
      `CREATE INDEX ix_vendor_partners_partner ON vendor_partners (partner_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, [
      'DROP TABLE vendor_partners',
      'DROP TABLE partner_users',
      'DROP TABLE partners',
    ]);
  }
}
