import type { QueryRunner } from 'typeorm';

/**
 * Column vocabulary for hand-written migrations that run on SQLite and MySQL/MariaDB alike.
 * Migrations are plain SQL so that what is created (types, collations, index columns) is visible in
 * review; this maps the few words that differ between the engines. The entities declare the same
 * columns with the helpers of ../columns.ts (docs/architecture.md, "Schema: migrations and entities").
 *
 * TypeORM reads a SQLite table back from the text of its CREATE TABLE: it finds the auto-increment
 * column and the names of foreign keys only when they are written in double quotes, and the length
 * of VARCHAR(n) but not of CHAR(n). So a new table uses `autoId()`, `foreignKey()` and `char()`;
 * `id` and unquoted constraints remain for the migrations that shipped with them (migration
 * 1763700000500 rewrote their SQLite tables in this form).
 */
export interface SqlDialect {
  engine: 'sqlite' | 'mysql';
  /** auto-increment 64-bit primary key, after an unquoted column name (shipped migrations only) */
  id: string;
  bigint: string;
  int: string;
  bool: string;
  /** millisecond precision, always UTC */
  datetime: string;
  /** up to 255 code points */
  varchar: string;
  /**
   * a normalized (lower-cased) key, as the shipped migrations created it: utf8mb4_bin on MySQL, so
   * 'ß' never equals 'ss'. utf8mb4_bin pads with spaces, so migration 1763700000900 made every such
   * column NO PAD; a migration that adds a key column writes `await keyType(queryRunner)` instead.
   */
  key: string;
  /** up to 5,000 code points (D14) */
  text: string;
  tableOptions: string;
  /** the whole definition of an auto-increment 64-bit primary key column named `column` */
  autoId(column?: string): string;
  /**
   * a named foreign key, inside a CREATE TABLE; without ON DELETE/ON UPDATE, like every foreign key
   * of the schema (a referenced row cannot be deleted or its key changed)
   */
  foreignKey(name: string, columns: string[], table: string, referenced: string[]): string;
  /** fixed-length text (a hex digest): CHAR(n) on MySQL, VARCHAR(n) on SQLite, the same type there */
  char(length: number): string;
}

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

export function dialectOf(queryRunner: QueryRunner): SqlDialect {
  if (queryRunner.connection.options.type === 'better-sqlite3') {
    return {
      engine: 'sqlite',
      id: 'INTEGER PRIMARY KEY AUTOINCREMENT',
      bigint: 'INTEGER',
      int: 'INTEGER',
      bool: 'BOOLEAN',
      datetime: 'DATETIME',
      varchar: 'VARCHAR(255)',
      key: 'VARCHAR(255)',
      text: 'TEXT',
      tableOptions: '',
      autoId: (column = 'id') => `"${column}" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL`,
      foreignKey: (name, columns, table, referenced) =>
        `CONSTRAINT "${name}" FOREIGN KEY (${quoted(columns)}) REFERENCES "${table}" (${quoted(referenced)})`,
      char: (length) => `VARCHAR(${length})`,
    };
  }
  return {
    engine: 'mysql',
    id: 'BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY',
    bigint: 'BIGINT',
    int: 'INT',
    bool: 'TINYINT(1)',
    datetime: 'DATETIME(3)',
    varchar: 'VARCHAR(255)',
    key: 'VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin',
    text: 'TEXT',
    tableOptions: ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci',
    autoId: (column = 'id') => `${column} BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY`,
    foreignKey: (name, columns, table, referenced) =>
      `CONSTRAINT ${name} FOREIGN KEY (${columns.join(', ')}) REFERENCES ${table} (${referenced.join(', ')})`,
    char: (length) => `CHAR(${length})`,
  };
}

/** Runs each statement in order. */
export async function execute(queryRunner: QueryRunner, statements: string[]): Promise<void> {
  for (const statement of statements) await queryRunner.query(statement);
}

/**
 * The collation of the lower-cased key columns on MySQL and MariaDB: binary, so code point order
 * (UTF-8's byte order) and no folding of its own, and NO PAD, so trailing spaces and the control
 * characters below the space count like any other character. utf8mb4_bin, which the shipped
 * migrations wrote, compares `ann\tb` below `ann` and `Bolt ` equal to `Bolt` (PAD SPACE): an
 * index range for the keyword `ann` lost the first, and a sort by the name tied the second
 * (docs/leads-indexes.md). The two servers have no NO PAD binary collation in common.
 */
export const KEY_COLLATION = { mysql: 'utf8mb4_0900_bin', mariadb: 'utf8mb4_nopad_bin' } as const;

/** Which of the two servers a MySQL-protocol connection talks to. */
export async function mysqlFlavour(queryRunner: QueryRunner): Promise<keyof typeof KEY_COLLATION> {
  const [row] = (await queryRunner.query('SELECT VERSION() AS version')) as { version: string }[];
  return /mariadb/i.test(String(row?.version)) ? 'mariadb' : 'mysql';
}

/** The type of a new lower-cased key column: up to 255 code points, NO PAD binary on MySQL. */
export async function keyType(queryRunner: QueryRunner): Promise<string> {
  const d = dialectOf(queryRunner);
  if (d.engine === 'sqlite') return d.key;
  return `VARCHAR(255) CHARACTER SET utf8mb4 COLLATE ${KEY_COLLATION[await mysqlFlavour(queryRunner)]}`;
}
