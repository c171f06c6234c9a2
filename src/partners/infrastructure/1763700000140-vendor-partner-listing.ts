import type { MigrationInterface, QueryRunner } from 'typeorm';
import { foldCase } from '../../shared/domain/text';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * X9: what a vendor's partner listing sorts and searches by, kept on the vendor's connection
 * (`vendor_partners`) so that every index of the listing starts with the vendor
 * (docs/partners-indexes.md):
 *
 * - `partner_created_at`, `partner_type`: copies of the partner's `created_at` and `type`;
 * - `company_name_normalized`, `contact_email_normalized`: lower-cased copies (`foldCase`, D13) of
 *   its company name and contact address, compared byte for byte like every normalized key.
 *
 * A partner is never changed after it is created (nothing in the API edits a partner's profile), so
 * the copies cannot go stale; they are written with the connection (`TypeOrmPartnerRepository.connect`).
 * Rows that exist already are filled here; the lower-cased copies in code, since SQLite's LOWER()
 * folds ASCII only. SQLite cannot add a NOT NULL column without a default, so there the columns get
 * one that no write ever uses; MySQL gets them NOT NULL without a default once they are filled.
 */
export class VendorPartnerListing1763700000140 implements MigrationInterface {
  name = 'VendorPartnerListing1763700000140';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    const sqlite = d.engine === 'sqlite';
    const added = (type: string, empty: string) =>
      sqlite ? `${type} NOT NULL DEFAULT ${empty}` : `${type} NULL`;
    await execute(queryRunner, [
      `ALTER TABLE vendor_partners ADD COLUMN partner_created_at ${added(d.datetime, "''")}`,
      `ALTER TABLE vendor_partners ADD COLUMN company_name_normalized ${added(d.key, "''")}`,
      `ALTER TABLE vendor_partners ADD COLUMN contact_email_normalized ${added(d.key, "''")}`,
      `ALTER TABLE vendor_partners ADD COLUMN partner_type VARCHAR(16) NULL`,
      `UPDATE vendor_partners SET
        partner_created_at = (SELECT p.created_at FROM partners p WHERE p.id = vendor_partners.partner_id),
        partner_type = (SELECT p.type FROM partners p WHERE p.id = vendor_partners.partner_id)`,
    ]);
    const partners: { id: number; company_name: string; contact_email_address: string }[] =
      await queryRunner.query(
        `SELECT id, company_name, contact_email_address FROM partners
        WHERE id IN (SELECT partner_id FROM vendor_partners)`,
      );
    for (const p of partners) {
      await queryRunner.query(
        'UPDATE vendor_partners SET company_name_normalized = ?, contact_email_normalized = ? WHERE partner_id = ?',
        [foldCase(p.company_name), foldCase(p.contact_email_address), p.id],
      );
    }
    if (!sqlite) {
      await queryRunner.query(
        `ALTER TABLE vendor_partners
          MODIFY partner_created_at ${d.datetime} NOT NULL,
          MODIFY company_name_normalized ${d.key} NOT NULL,
          MODIFY contact_email_normalized ${d.key} NOT NULL`,
      );
    }
    await execute(queryRunner, [
      // sortBy=createdAt (the default), either direction; ties by partner id from the index order
      `CREATE INDEX ix_vendor_partners_created ON vendor_partners (vendor_id, partner_created_at, partner_id)`,
      // sortBy=companyName, and the keyword's prefix range on the company name
      `CREATE INDEX ix_vendor_partners_company ON vendor_partners (vendor_id, company_name_normalized, partner_id)`,
      // the keyword's prefix range on the contact address
      `CREATE INDEX ix_vendor_partners_email ON vendor_partners (vendor_id, contact_email_normalized, partner_id)`,
      // type=..., in the default order
      `CREATE INDEX ix_vendor_partners_type ON vendor_partners (vendor_id, partner_type, partner_created_at, partner_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const on = dialectOf(queryRunner).engine === 'mysql' ? ' ON vendor_partners' : '';
    await execute(queryRunner, [
      `DROP INDEX ix_vendor_partners_created${on}`,
      `DROP INDEX ix_vendor_partners_company${on}`,
      `DROP INDEX ix_vendor_partners_email${on}`,
      `DROP INDEX ix_vendor_partners_type${on}`,
      'ALTER TABLE vendor_partners DROP COLUMN partner_created_at',
      'ALTER TABLE vendor_partners DROP COLUMN company_name_normalized',
      'ALTER TABLE vendor_partners DROP COLUMN contact_email_normalized',
      'ALTER TABLE vendor_partners DROP COLUMN partner_type',
    ]);
  }
}
