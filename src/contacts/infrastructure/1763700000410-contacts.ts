import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * Contacts, made from approved leads. UNIQUE(lead_id) is the last guard of "one contact per lead"
 * (D32); (vendor_id, email_normalized, lead_id) answers the contact half of isDuplicate (D28) from
 * the index alone. Listed in contacts.schema.ts; its timestamp puts it after the leads table it refers to.
 */
export class Contacts1763700000410 implements MigrationInterface {
  name = 'Contacts1763700000410';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE contacts (
        id ${d.id},
        vendor_id ${d.bigint} NOT NULL,
        partner_id ${d.bigint} NOT NULL,
        lead_id ${d.bigint} NOT NULL,
        first_name ${d.varchar} NOT NULL,
        last_name ${d.varchar} NULL,
        email_address ${d.varchar} NOT NULL,
        email_normalized ${d.key} NOT NULL,
        phone_number ${d.varchar} NULL,
        linked_in_url ${d.varchar} NULL,
        job_title ${d.varchar} NULL,
        company_name ${d.varchar} NOT NULL,
        website_url ${d.varchar} NULL,
        company_size ${d.varchar} NULL,
        industry ${d.varchar} NULL,
        city ${d.varchar} NULL,
        state ${d.varchar} NULL,
        country ${d.varchar} NULL,
        created_at ${d.datetime} NOT NULL,
        CONSTRAINT fk_contacts_lead FOREIGN KEY (lead_id) REFERENCES leads (id),
        CONSTRAINT fk_contacts_vendor FOREIGN KEY (vendor_id) REFERENCES vendors (id)
      )${d.tableOptions}`,
      `CREATE UNIQUE INDEX ux_contacts_lead ON contacts (lead_id)`,
      `CREATE INDEX ix_contacts_vendor_email ON contacts (vendor_id, email_normalized, lead_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE contacts']);
  }
}
