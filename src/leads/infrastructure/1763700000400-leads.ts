import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * Leads. A lead belongs to one vendor and one partner (D27); the foreign key to vendor_partners
 * keeps that pair a real connection. Which index serves which query, with EXPLAIN output from
 * MariaDB: docs/leads-indexes.md. In short, every listing index leads with (vendor_id, partner_id,
 * archived) because every listing filters on those three by equality (docs/api.md 6, D33).
 */
export class Leads1763700000400 implements MigrationInterface {
  name = 'Leads1763700000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    await execute(queryRunner, [
      `CREATE TABLE leads (
        id ${d.id},
        vendor_id ${d.bigint} NOT NULL,
        partner_id ${d.bigint} NOT NULL,
        first_name ${d.varchar} NOT NULL,
        first_name_normalized ${d.key} NOT NULL,
        last_name ${d.varchar} NULL,
        email_address ${d.varchar} NOT NULL,
        email_normalized ${d.key} NOT NULL,
        phone_number ${d.varchar} NULL,
        linked_in_url ${d.varchar} NULL,
        company_name ${d.varchar} NOT NULL,
        website_url ${d.varchar} NULL,
        company_size ${d.varchar} NULL,
        industry ${d.varchar} NULL,
        job_title ${d.varchar} NULL,
        city ${d.varchar} NULL,
        state ${d.varchar} NULL,
        country ${d.varchar} NULL,
        source ${d.bigint} NULL,
        status ${d.bigint} NULL,
        lead_age ${d.int} NULL,
        products_interested ${d.text} NULL,
        business_impact_metrics ${d.text} NULL,
        external_id ${d.varchar} NULL,
        approval_status VARCHAR(16) NOT NULL,
        archived ${d.bool} NOT NULL,
        reject_reason ${d.varchar} NULL,
        reject_comment ${d.text} NULL,
        last_active_at ${d.datetime} NULL,
        submitted_by_type VARCHAR(16) NULL,
        created_at ${d.datetime} NOT NULL,
        updated_at ${d.datetime} NOT NULL,
        CONSTRAINT fk_leads_vendor_partner FOREIGN KEY (vendor_id, partner_id) REFERENCES vendor_partners (vendor_id, partner_id)
      )${d.tableOptions}`,
      // D27: one email per (vendor, partner), case-insensitive, archived leads included. The last
      // guard behind the use case's check; also serves keyword prefix search on the email (D33).
      `CREATE UNIQUE INDEX ux_leads_partner_email ON leads (vendor_id, partner_id, email_normalized)`,
      // docs/api.md 6: listing sorted by createdAt (the default), updatedAt or id, ties broken by id.
      `CREATE INDEX ix_leads_partner_created ON leads (vendor_id, partner_id, archived, created_at, id)`,
      `CREATE INDEX ix_leads_partner_updated ON leads (vendor_id, partner_id, archived, updated_at, id)`,
      `CREATE INDEX ix_leads_partner_id ON leads (vendor_id, partner_id, archived, id)`,
      // D33: keyword prefix search on the first name.
      `CREATE INDEX ix_leads_partner_first_name ON leads (vendor_id, partner_id, archived, first_name_normalized)`,
      // D28: isDuplicate looks for another active lead of the vendor with the same email.
      `CREATE INDEX ix_leads_vendor_email ON leads (vendor_id, email_normalized, archived)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE leads']);
  }
}
