import type { MigrationInterface, QueryRunner } from 'typeorm';
import { KEY_COLLATION, dialectOf, mysqlFlavour } from './sql-dialect';

interface KeyColumnInfo {
  tableName: string;
  columnName: string;
  columnType: string;
  nullable: string;
  columnDefault: string | null;
}

/**
 * MySQL/MariaDB only (nothing on SQLite, whose BINARY collation never pads): every column of the
 * service's schema in utf8mb4_bin, which the shipped migrations wrote for the lower-cased keys
 * (SqlDialect.key), becomes NO PAD binary (KEY_COLLATION: utf8mb4_nopad_bin on MariaDB,
 * utf8mb4_0900_bin on MySQL 8.0.17 and later), in the same type and nullability.
 *
 * Why: utf8mb4_bin compares as if the shorter value were padded with spaces. A first name or company
 * name with a tab or a newline right after the keyword then sorts below the keyword, outside the
 * index range MariaDB builds for `LIKE 'keyword%'`, and was not found (D33, X9); two names that
 * differ only by trailing spaces sorted as equal (X9's sort by company name is code point order).
 * NO PAD changes no value, and no two values equal under it were different before, so every
 * unique index still holds. Found by the columns' collation, not by name, so that it covers each
 * key column whichever module created it.
 */
export class NoPadKeys1763700000900 implements MigrationInterface {
  name = 'NoPadKeys1763700000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (dialectOf(queryRunner).engine === 'sqlite') return;
    const noPad = KEY_COLLATION[await mysqlFlavour(queryRunner)];
    await this.modify(queryRunner, await this.columnsIn(queryRunner, 'utf8mb4_bin'), noPad);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (dialectOf(queryRunner).engine === 'sqlite') return;
    const noPad = KEY_COLLATION[await mysqlFlavour(queryRunner)];
    await this.modify(queryRunner, await this.columnsIn(queryRunner, noPad), 'utf8mb4_bin');
  }

  /** The columns of this database in `collation`, table by table. */
  private async columnsIn(queryRunner: QueryRunner, collation: string): Promise<KeyColumnInfo[]> {
    return (await queryRunner.query(
      `SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, COLUMN_TYPE AS columnType,
              IS_NULLABLE AS nullable, COLUMN_DEFAULT AS columnDefault
         FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME = ?
        ORDER BY TABLE_NAME, ORDINAL_POSITION`,
      [collation],
    )) as KeyColumnInfo[];
  }

  /** One ALTER TABLE per table, so that each table is rebuilt once. */
  private async modify(queryRunner: QueryRunner, columns: KeyColumnInfo[], collation: string): Promise<void> {
    const byTable = new Map<string, string[]>();
    for (const column of columns) {
      // No key column has a default; one that had would need it written here, so stop rather than drop it.
      if (column.columnDefault !== null && column.columnDefault !== 'NULL') {
        throw new Error(
          `${column.tableName}.${column.columnName} has a default this migration does not carry over`,
        );
      }
      const nullability = column.nullable === 'YES' ? 'NULL' : 'NOT NULL';
      const clauses = byTable.get(column.tableName) ?? [];
      clauses.push(
        `MODIFY ${column.columnName} ${column.columnType} CHARACTER SET utf8mb4 COLLATE ${collation} ${nullability}`,
      );
      byTable.set(column.tableName, clauses);
    }
    for (const [table, clauses] of byTable)
      await queryRunner.query(`ALTER TABLE ${table} ${clauses.join(', ')}`);
  }
}
