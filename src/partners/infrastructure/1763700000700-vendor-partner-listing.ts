import type { MigrationInterface, QueryRunner } from 'typeorm';
import { foldCase } from '../../shared/domain/text';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/** The indexes of the vendor's partner listing (X9; which serves what: docs/partners-indexes.md). */
const LISTING_INDEXES = [
  // sortBy=createdAt (the default), either direction; ties by partner id from the index order
  `CREATE INDEX ix_vendor_partners_created ON vendor_partners (vendor_id, partner_created_at, partner_id)`,
  // sortBy=companyName, and the keyword's prefix range on the company name
  `CREATE INDEX ix_vendor_partners_company ON vendor_partners (vendor_id, company_name_normalized, partner_id)`,
  // the keyword's prefix range on the contact address
  `CREATE INDEX ix_vendor_partners_email ON vendor_partners (vendor_id, contact_email_normalized, partner_id)`,
  // type=..., in the default order
  `CREATE INDEX ix_vendor_partners_type ON vendor_partners (vendor_id, partner_type, partner_created_at, partner_id)`,
];

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
 * Connections that exist already get them here; the lower-cased copies in code, since SQLite's
 * LOWER() folds ASCII only.
 *
 * MySQL: the columns are added NULL, filled, then made NOT NULL. SQLite cannot add a NOT NULL column
 * without a default, so the table is copied into a new one with the columns and renamed, as
 * migration 1763700000500 does (TypeORM runs SQLite migrations with foreign key enforcement off; the
 * leads' foreign key names the table, which exists again once renamed).
 */
export class VendorPartnerListing1763700000700 implements MigrationInterface {
  name = 'VendorPartnerListing1763700000700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    if (d.engine === 'sqlite') {
      await execute(queryRunner, [
        `CREATE TABLE "vendor_partners__listing" (
          "vendor_id" INTEGER NOT NULL,
          "partner_id" INTEGER NOT NULL,
          "created_at" DATETIME NOT NULL,
          "partner_created_at" DATETIME NOT NULL,
          "company_name_normalized" VARCHAR(255) NOT NULL,
          "contact_email_normalized" VARCHAR(255) NOT NULL,
          "partner_type" VARCHAR(16),
          PRIMARY KEY ("vendor_id", "partner_id"),
          ${d.foreignKey('fk_vendor_partners_vendor', ['vendor_id'], 'vendors', ['id'])},
          ${d.foreignKey('fk_vendor_partners_partner', ['partner_id'], 'partners', ['id'])}
        )`,
        // the names as stored for now; lower-cased below
        `INSERT INTO "vendor_partners__listing"
          SELECT vp.vendor_id, vp.partner_id, vp.created_at, p.created_at, p.company_name,
                 p.contact_email_address, p.type
            FROM vendor_partners vp JOIN partners p ON p.id = vp.partner_id`,
        `DROP TABLE "vendor_partners"`,
        `ALTER TABLE "vendor_partners__listing" RENAME TO "vendor_partners"`,
        `CREATE INDEX ix_vendor_partners_partner ON vendor_partners (partner_id)`,
      ]);
      const violations = (await queryRunner.query('PRAGMA foreign_key_check')) as unknown[];
      if (violations.length > 0) throw new Error(`foreign key violations after the copy: ${JSON.stringify(violations)}`);
    } else {
      await execute(queryRunner, [
        `ALTER TABLE vendor_partners
          ADD COLUMN partner_created_at ${d.datetime} NULL,
          ADD COLUMN company_name_normalized ${d.key} NULL,
          ADD COLUMN contact_email_normalized ${d.key} NULL,
          ADD COLUMN partner_type VARCHAR(16) NULL`,
        `UPDATE vendor_partners vp JOIN partners p ON p.id = vp.partner_id
            SET vp.partner_created_at = p.created_at, vp.partner_type = p.type`,
      ]);
    }
    const partners: { id: number; company_name: string; contact_email_address: string }[] = await queryRunner.query(
      `SELECT id, company_name, contact_email_address FROM partners
        WHERE id IN (SELECT partner_id FROM vendor_partners)`,
    );
    for (const p of partners) {
      await queryRunner.query(
        'UPDATE vendor_partners SET company_name_normalized = ?, contact_email_normalized = ? WHERE partner_id = ?',
        [foldCase(p.company_name), foldCase(p.contact_email_address), p.id],
      );
    }
    if (d.engine === 'mysql') {
      await queryRunner.query(
        `ALTER TABLE vendor_partners
          MODIFY partner_created_at ${d.datetime} NOT NULL,
          MODIFY company_name_normalized ${d.key} NOT NULL,
          MODIFY contact_email_normalized ${d.key} NOT NULL`,
      );
    }
    await execute(queryRunner, LISTING_INDEXES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    const on = d.engine === 'mysql' ? ' ON vendor_partners' : '';
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
