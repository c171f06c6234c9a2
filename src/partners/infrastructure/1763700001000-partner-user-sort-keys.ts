import type { MigrationInterface, QueryRunner } from 'typeorm';
import { foldCase, foldCaseOrNull } from '../../shared/domain/text';
import { dialectOf, execute, keyType } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * D24: the user listing sorts `firstName`, `lastName` and `jobTitle` by lower-cased copies stored with
 * each user (`foldCase`, D13), compared byte for byte, instead of lower-casing in the query. The
 * engines' own LOWER() disagree beyond the common letters (MySQL/MariaDB lower `İ` to `i` and leave
 * `ẞ`, Georgian capitals and letters beyond U+FFFF as they are; SQLite's folds ASCII only), so only a
 * copy made by the service sorts the same on both.
 *
 * Users that exist already get their copies here, lower-cased in code. MySQL: the columns are added
 * NULL, filled, and `first_name_normalized` made NOT NULL. SQLite cannot add a NOT NULL column without
 * a default, so the table is copied into a new one with the columns and renamed, as migrations
 * 1763700000500 and 1763700000700 do (foreign key enforcement is off while TypeORM runs SQLite
 * migrations; `invitations` names the table, which exists again once renamed), keeping the
 * AUTOINCREMENT counter so that no id is handed out twice.
 */
export class PartnerUserSortKeys1763700001000 implements MigrationInterface {
  name = 'PartnerUserSortKeys1763700001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    const key = await keyType(queryRunner);
    if (d.engine === 'sqlite') {
      await execute(queryRunner, [
        `CREATE TABLE "partner_users__sort" (
          "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
          "partner_id" INTEGER NOT NULL,
          "first_name" VARCHAR(255) NOT NULL,
          "first_name_normalized" VARCHAR(255) NOT NULL,
          "last_name" VARCHAR(255),
          "last_name_normalized" VARCHAR(255),
          "email_address" VARCHAR(255) NOT NULL,
          "email_normalized" VARCHAR(255) NOT NULL,
          "phone_number" VARCHAR(255),
          "job_title" VARCHAR(255),
          "job_title_normalized" VARCHAR(255),
          "last_active_at" DATETIME,
          "created_at" DATETIME NOT NULL,
          ${d.foreignKey('fk_partner_users_partner', ['partner_id'], 'partners', ['id'])}
        )`,
        // the names as stored for now; lower-cased below
        `INSERT INTO "partner_users__sort"
          SELECT id, partner_id, first_name, first_name, last_name, last_name, email_address,
                 email_normalized, phone_number, job_title, job_title, last_active_at, created_at
            FROM partner_users`,
        // the copy's own counter is the highest id copied; the table's may be higher (AUTOINCREMENT)
        `DELETE FROM sqlite_sequence WHERE name = 'partner_users__sort'`,
        `INSERT INTO sqlite_sequence (name, seq)
          SELECT 'partner_users__sort', seq FROM sqlite_sequence WHERE name = 'partner_users'`,
        `DROP TABLE "partner_users"`,
        `ALTER TABLE "partner_users__sort" RENAME TO "partner_users"`,
        `CREATE UNIQUE INDEX ux_partner_users_email ON partner_users (email_normalized)`,
        `CREATE INDEX ix_partner_users_partner ON partner_users (partner_id, id)`,
      ]);
      const violations = (await queryRunner.query('PRAGMA foreign_key_check')) as unknown[];
      if (violations.length > 0)
        throw new Error(`foreign key violations after the copy: ${JSON.stringify(violations)}`);
    } else {
      await queryRunner.query(
        `ALTER TABLE partner_users
          ADD COLUMN first_name_normalized ${key} NULL AFTER first_name,
          ADD COLUMN last_name_normalized ${key} NULL AFTER last_name,
          ADD COLUMN job_title_normalized ${key} NULL AFTER job_title`,
      );
    }
    const users: { id: number; first_name: string; last_name: string | null; job_title: string | null }[] =
      await queryRunner.query('SELECT id, first_name, last_name, job_title FROM partner_users');
    for (const user of users) {
      await queryRunner.query(
        `UPDATE partner_users
            SET first_name_normalized = ?, last_name_normalized = ?, job_title_normalized = ?
          WHERE id = ?`,
        [foldCase(user.first_name), foldCaseOrNull(user.last_name), foldCaseOrNull(user.job_title), user.id],
      );
    }
    if (d.engine === 'mysql') {
      await queryRunner.query(`ALTER TABLE partner_users MODIFY first_name_normalized ${key} NOT NULL`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, [
      'ALTER TABLE partner_users DROP COLUMN first_name_normalized',
      'ALTER TABLE partner_users DROP COLUMN last_name_normalized',
      'ALTER TABLE partner_users DROP COLUMN job_title_normalized',
    ]);
  }
}
