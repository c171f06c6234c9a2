import type { QueryRunner } from 'typeorm';

/**
 * Column vocabulary for hand-written migrations that run on SQLite and MySQL/MariaDB alike.
 * Migrations are plain SQL so that what is created (types, collations, index columns) is visible in
 * review; this maps the few words that differ between the engines.
 */
export interface SqlDialect {
  engine: 'sqlite' | 'mysql';
  /** auto-increment 64-bit primary key */
  id: string;
  bigint: string;
  int: string;
  bool: string;
  /** millisecond precision, always UTC */
  datetime: string;
  /** up to 255 code points */
  varchar: string;
  /** a normalized (lower-cased) key: compared byte for byte on MySQL so 'ß' never equals 'ss' */
  key: string;
  /** up to 5,000 code points (D14) */
  text: string;
  tableOptions: string;
}

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
  };
}

/** Runs each statement in order. */
export async function execute(queryRunner: QueryRunner, statements: string[]): Promise<void> {
  for (const statement of statements) await queryRunner.query(statement);
}
