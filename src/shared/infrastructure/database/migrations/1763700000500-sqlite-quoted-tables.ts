import type { MigrationInterface, QueryRunner } from 'typeorm';
import { SqlDialect, dialectOf } from './sql-dialect';

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

interface ForeignKeyInfo {
  id: number;
  seq: number;
  table: string;
  from: string;
  to: string;
  on_update: string;
  on_delete: string;
}

const ACTION_DEFAULT = 'NO ACTION';

/**
 * What a CREATE TABLE may hold that this rewrite does not carry over. Such a table is left as it is:
 * still correct, and the schema parity test names it if TypeORM cannot read it.
 */
const UNHANDLED = /\b(CHECK|UNIQUE|COLLATE|GENERATED|DEFERRABLE|WITHOUT\s+ROWID)\b/i;

/** `CONSTRAINT name FOREIGN KEY (a, b) REFERENCES table`, with or without quotes. */
const NAMED_FOREIGN_KEY =
  /CONSTRAINT\s+["`]?(\w+)["`]?\s+FOREIGN\s+KEY\s*\(([^)]*)\)\s*REFERENCES\s+["`]?(\w+)["`]?/gi;

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');
const unquote = (list: string) => list.split(',').map((name) => name.trim().replace(/^["`]|["`]$/g, ''));

/**
 * SQLite only (nothing on MySQL/MariaDB): rewrites every table whose CREATE TABLE was written without
 * quotes, in the same columns, types, keys and rows, into the form TypeORM reads back, so that the
 * entities can declare what the migrations created (docs/architecture.md, "Schema: migrations and
 * entities"). The shipped migrations wrote `id INTEGER PRIMARY KEY AUTOINCREMENT` and
 * `CONSTRAINT fk_x FOREIGN KEY (...) REFERENCES t (...)`; TypeORM's SQLite reader finds the
 * auto-increment column and the foreign key names only in double quotes, and the length of VARCHAR(n)
 * but not of CHAR(n), so it saw every table as different from its entity. On SQLite CHAR(n) and
 * VARCHAR(n) are one type (text, no length enforced); NOT NULL on the INTEGER PRIMARY KEY changes
 * nothing (it can never be NULL).
 *
 * SQLite cannot change a table's definition in place: each table is copied into a new one
 * (https://www.sqlite.org/lang_altertable.html#otheralter) with its ids and AUTOINCREMENT counter,
 * then renamed, and its indexes are created again from their own SQL. TypeORM runs migrations on
 * SQLite with foreign key enforcement off, which the copy needs; foreign_key_check runs at the end.
 * The old migrations are not edited: they have shipped, and a database made by them is rewritten
 * here like a new one.
 */
export class SqliteQuotedTables1763700000500 implements MigrationInterface {
  name = 'SqliteQuotedTables1763700000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    if (d.engine !== 'sqlite') return;
    const [pragma] = (await queryRunner.query('PRAGMA foreign_keys')) as { foreign_keys: number }[];
    if (pragma?.foreign_keys) throw new Error('foreign keys must be off while SQLite tables are copied');
    const tables = (await queryRunner.query(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         AND name NOT IN ('migrations', 'typeorm_metadata') ORDER BY name`,
    )) as { name: string; sql: string }[];
    for (const table of tables) {
      if (!/^CREATE TABLE "/.test(table.sql)) await rewrite(queryRunner, d, table.name, table.sql);
    }
    const violations = (await queryRunner.query('PRAGMA foreign_key_check')) as unknown[];
    if (violations.length > 0)
      throw new Error(`foreign key violations after the copy: ${JSON.stringify(violations)}`);
  }

  /** Nothing to undo: the tables hold the same columns, keys and rows as before. */
  async down(): Promise<void> {}
}

async function rewrite(queryRunner: QueryRunner, d: SqlDialect, table: string, sql: string): Promise<void> {
  if (UNHANDLED.test(sql)) return;
  const columns = (await queryRunner.query(`PRAGMA table_xinfo("${table}")`)) as ColumnInfo[];
  if (columns.some((c) => c.hidden !== 0)) return;
  const keys = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const rowid = keys.length === 1 && keys[0]!.type.toUpperCase() === 'INTEGER' ? keys[0]! : undefined;
  if (/AUTOINCREMENT/i.test(sql) && !rowid) return;

  const definitions = columns.map((c) => {
    if (c === rowid) {
      return /AUTOINCREMENT/i.test(sql) ? d.autoId(c.name) : `"${c.name}" INTEGER PRIMARY KEY NOT NULL`;
    }
    const char = /^CHAR\((\d+)\)$/i.exec(c.type);
    const type = char ? d.char(Number(char[1])) : c.type;
    const notNull = c.notnull ? ' NOT NULL' : '';
    const fallback = c.dflt_value === null ? '' : ` DEFAULT ${c.dflt_value}`;
    return `"${c.name}" ${type}${notNull}${fallback}`;
  });
  if (keys.length > 0 && !rowid) definitions.push(`PRIMARY KEY (${quoted(keys.map((c) => c.name))})`);

  const named = [...sql.matchAll(NAMED_FOREIGN_KEY)].map((m) => ({
    name: m[1]!,
    columns: unquote(m[2]!).join(','),
    table: m[3]!,
  }));
  const foreignKeys = (await queryRunner.query(`PRAGMA foreign_key_list("${table}")`)) as ForeignKeyInfo[];
  // PRAGMA numbers a table's foreign keys from the last declared: declare them in their old order
  for (const id of [...new Set(foreignKeys.map((fk) => fk.id))].sort((a, b) => b - a)) {
    const parts = foreignKeys.filter((fk) => fk.id === id).sort((a, b) => a.seq - b.seq);
    const { table: referenced, on_delete, on_update } = parts[0]!;
    const from = parts.map((p) => p.from);
    const to = parts.map((p) => p.to);
    const name = named.find((n) => n.table === referenced && n.columns === from.join(','))?.name;
    const key = name
      ? d.foreignKey(name, from, referenced, to)
      : `FOREIGN KEY (${quoted(from)}) REFERENCES "${referenced}" (${quoted(to)})`;
    const onDelete = on_delete === ACTION_DEFAULT ? '' : ` ON DELETE ${on_delete}`;
    const onUpdate = on_update === ACTION_DEFAULT ? '' : ` ON UPDATE ${on_update}`;
    definitions.push(`${key}${onDelete}${onUpdate}`);
  }

  const indexes = (await queryRunner.query(
    `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`,
    [table],
  )) as { sql: string }[];
  const copy = `${table}__quoted`;
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  await queryRunner.query(`CREATE TABLE "${copy}" (${definitions.join(', ')})`);
  await queryRunner.query(`INSERT INTO "${copy}" (${names}) SELECT ${names} FROM "${table}"`);
  if (/AUTOINCREMENT/i.test(sql)) {
    // AUTOINCREMENT never hands out an id twice, not even one whose row was deleted: keep the counter.
    await queryRunner.query('DELETE FROM sqlite_sequence WHERE name = ?', [copy]);
    await queryRunner.query(
      'INSERT INTO sqlite_sequence (name, seq) SELECT ?, seq FROM sqlite_sequence WHERE name = ?',
      [copy, table],
    );
  }
  await queryRunner.query(`DROP TABLE "${table}"`);
  await queryRunner.query(`ALTER TABLE "${copy}" RENAME TO "${table}"`);
  for (const index of indexes) await queryRunner.query(index.sql);
}
