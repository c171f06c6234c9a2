import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/shared/infrastructure/database/data-source-options';
import { migrations } from '../../src/database';
import { SqliteQuotedTables1763700000500 } from '../../src/shared/infrastructure/database/migrations/1763700000500-sqlite-quoted-tables';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';

const T = '2026-01-02 03:04:05.678';
const HASH = 'ab'.repeat(32);

/**
 * Migration 1763700000500 copies every SQLite table made by the earlier migrations into the quoted
 * form TypeORM reads back (docs/architecture.md, "Schema: migrations and entities"). On a database
 * that already holds data it must change nothing but the text of each CREATE TABLE.
 */
describe('migration SqliteQuotedTables1763700000500 (SQLite)', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;
  const upTo = migrations.indexOf(SqliteQuotedTables1763700000500);

  const open = async (list: typeof migrations) => {
    const source = new DataSource({
      ...dataSourceOptions(parseDatabaseUrl(scratch.url)),
      migrations: list,
      logging: false,
    });
    return source.initialize();
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    dataSource = await open(migrations.slice(0, upTo));
    await dataSource.runMigrations({ transaction: 'each' });
    await seed(dataSource);
    // tables of a later migration written the old way: an unnamed foreign key with an action, and a
    // constraint the rewrite does not carry over (UNIQUE), which it leaves alone
    await dataSource.query(
      `CREATE TABLE lead_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, lead_id INTEGER NOT NULL REFERENCES leads (id)
        ON DELETE CASCADE, body TEXT NOT NULL DEFAULT '')`,
    );
    await dataSource.query(`INSERT INTO lead_notes (lead_id, body) VALUES (1, 'note')`);
    await dataSource.query(`CREATE TABLE tags (name VARCHAR(20) NOT NULL UNIQUE)`);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await scratch?.drop();
  });

  it('keeps every row, id, AUTOINCREMENT counter, index and foreign key; rewrites only the CREATE TABLE text', async () => {
    const before = await describeDatabase(dataSource);
    expect(before.tables.api_keys!.sql).toMatch(/^CREATE TABLE api_keys/);
    await dataSource.destroy();

    // this migration alone: later ones add tables and columns of their own (X1-X5, X9, X12)
    dataSource = await open(migrations.slice(0, upTo + 1));
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toEqual(['SqliteQuotedTables1763700000500']);
    const after = await describeDatabase(dataSource);

    expect(after.rows).toEqual(before.rows);
    expect(after.sequences).toEqual(before.sequences);
    expect(after.sequences).toContainEqual({ name: 'vendors', seq: 3 });
    expect(after.indexes).toEqual(before.indexes);
    expect(after.foreignKeys).toEqual(before.foreignKeys);
    // the same columns; CHAR(64) is VARCHAR(64) (one type on SQLite), the INTEGER PRIMARY KEY says NOT NULL
    const expectedColumns = JSON.parse(
      JSON.stringify(before.columns).replaceAll('"CHAR(64)"', '"VARCHAR(64)"'),
    ) as typeof before.columns;
    for (const table of Object.values(expectedColumns)) {
      for (const column of table) if (column.pk === 1 && column.type === 'INTEGER') column.notnull = 1;
    }
    expect(after.columns).toEqual(expectedColumns);

    expect(after.tables.api_keys!.sql).toBe(
      'CREATE TABLE "api_keys" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "vendor_id" INTEGER NOT NULL, ' +
        '"key_hash" VARCHAR(64) NOT NULL, "key_prefix" VARCHAR(16) NOT NULL, "created_at" DATETIME NOT NULL, ' +
        '"revoked_at" DATETIME, "last_used_at" DATETIME, ' +
        'CONSTRAINT "fk_api_keys_vendor" FOREIGN KEY ("vendor_id") REFERENCES "vendors" ("id"))',
    );
    expect(after.tables.leads!.sql).toContain(
      'CONSTRAINT "fk_leads_vendor_partner" FOREIGN KEY ("vendor_id", "partner_id") ' +
        'REFERENCES "vendor_partners" ("vendor_id", "partner_id")',
    );
    expect(after.tables.lead_notes!.sql).toBe(
      'CREATE TABLE "lead_notes" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "lead_id" INTEGER NOT NULL, ' +
        `"body" TEXT NOT NULL DEFAULT '', FOREIGN KEY ("lead_id") REFERENCES "leads" ("id") ON DELETE CASCADE)`,
    );
    expect(after.tables.tags).toEqual(before.tables.tags);
    expect(after.tables.lead_counts!.sql).toContain(
      'PRIMARY KEY ("vendor_id", "partner_id", "archived", "approval_status", "slot")',
    );
  });

  it('gives a new row an id above every id ever given, and enforces the foreign keys again', async () => {
    // vendor 3 was deleted before the migration; AUTOINCREMENT must not give 3 again
    await dataSource.query(`INSERT INTO vendors (name, created_at) VALUES ('Next', ?)`, [T]);
    expect(await dataSource.query(`SELECT id FROM vendors WHERE name = 'Next'`)).toEqual([{ id: 4 }]);
    await expect(
      dataSource.query(
        `INSERT INTO api_keys (vendor_id, key_hash, key_prefix, created_at) VALUES (999, ?, 'prm_x', ?)`,
        [HASH.replace('ab', 'cd'), T],
      ),
    ).rejects.toThrow(/FOREIGN KEY constraint failed/);
    await expect(dataSource.query(`DELETE FROM vendors WHERE id = 1`)).rejects.toThrow(
      /FOREIGN KEY constraint failed/,
    );
  });

  it('leaves tables already in quoted form as they are', async () => {
    const before = await describeDatabase(dataSource);
    const runner = dataSource.createQueryRunner();
    try {
      await runner.query('PRAGMA foreign_keys = OFF');
      await new SqliteQuotedTables1763700000500().up(runner);
      await runner.query('PRAGMA foreign_keys = ON');
    } finally {
      await runner.release();
    }
    expect(await describeDatabase(dataSource)).toEqual(before);
  });
});

/** One row in every table made by the earlier migrations, and a deleted vendor. */
async function seed(ds: DataSource): Promise<void> {
  const statements: [string, unknown[]][] = [
    [`INSERT INTO vendors (name, created_at) VALUES ('Acme', ?), ('Other', ?), ('Gone', ?)`, [T, T, T]],
    [`DELETE FROM vendors WHERE id = 3`, []],
    [
      `INSERT INTO api_keys (vendor_id, key_hash, key_prefix, created_at, revoked_at) VALUES (1, ?, 'prm_ab', ?, NULL)`,
      [HASH, T],
    ],
    [`INSERT INTO lead_options (vendor_id, kind, label, created_at) VALUES (1, 'source', 'Web', ?)`, [T]],
    [
      `INSERT INTO partners (company_name, contact_name, contact_email_address, type, created_at)
        VALUES ('Partner', 'Pat', 'pat@example.test', 'RESELLER', ?)`,
      [T],
    ],
    [
      `INSERT INTO partner_users (partner_id, first_name, email_address, email_normalized, created_at)
        VALUES (1, 'Pat', 'Pat@Example.test', 'pat@example.test', ?)`,
      [T],
    ],
    [`INSERT INTO vendor_partners (vendor_id, partner_id, created_at) VALUES (1, 1, ?)`, [T]],
    [`INSERT INTO invitations (user_id, vendor_id, token_hash, created_at) VALUES (1, 1, ?, ?)`, [HASH, T]],
    [
      `INSERT INTO mail_outbox (recipient, subject, text_body, status, attempts, next_attempt_at, created_at)
        VALUES ('pat@example.test', 'Hello', 'Body', 'PENDING', 0, ?, ?)`,
      [T, T],
    ],
    [
      `INSERT INTO leads (vendor_id, partner_id, first_name, first_name_normalized, email_address,
          email_normalized, company_name, source, approval_status, archived, created_at, updated_at)
        VALUES (1, 1, 'Lee', 'lee', 'Lee@Example.test', 'lee@example.test', 'Co', 1, 'APPROVED', 0, ?, ?)`,
      [T, T],
    ],
    [
      `INSERT INTO contacts (vendor_id, partner_id, lead_id, first_name, email_address, email_normalized,
          company_name, created_at)
        VALUES (1, 1, 1, 'Lee', 'Lee@Example.test', 'lee@example.test', 'Co', ?)`,
      [T],
    ],
    [
      `INSERT INTO lead_counts (vendor_id, partner_id, archived, approval_status, slot, total)
        VALUES (1, 1, 0, 'APPROVED', 1, 1)`,
      [],
    ],
  ];
  for (const [sql, parameters] of statements) await ds.query(sql, parameters);
}

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** Everything the migration must keep, read from SQLite itself. */
async function describeDatabase(ds: DataSource) {
  const tables = (await ds.query(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name != 'migrations'
      ORDER BY name`,
  )) as { name: string; sql: string }[];
  const result = {
    tables: Object.fromEntries(tables.map((t) => [t.name, t])),
    rows: {} as Record<string, unknown[]>,
    columns: {} as Record<string, ColumnInfo[]>,
    foreignKeys: {} as Record<string, unknown[]>,
    indexes: (await ds.query(
      `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name`,
    )) as unknown[],
    sequences: (await ds.query(
      `SELECT name, seq FROM sqlite_sequence WHERE name != 'migrations' ORDER BY name`,
    )) as unknown[],
  };
  for (const { name } of tables) {
    result.rows[name] = (await ds.query(`SELECT * FROM "${name}" ORDER BY 1`)) as unknown[];
    result.columns[name] = (await ds.query(`PRAGMA table_xinfo("${name}")`)) as ColumnInfo[];
    result.foreignKeys[name] = (await ds.query(`PRAGMA foreign_key_list("${name}")`)) as unknown[];
  }
  return result;
}
