import { DataSource, EntityMetadata, Table } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { engineOf } from '../../src/shared/infrastructure/database/database-dialect';
import { databaseSchema, entities } from '../../src/database';
import { schemaDataSource } from '../../src/shared/infrastructure/database/schema-data-source';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { createTestContext } from '../support/test-app';

/**
 * The migrations are the source of truth for the schema; the ORM entities declare the same tables,
 * columns, indexes and foreign keys (docs/architecture.md, "Schema: migrations and entities"). A
 * database migrated by the service is compared with the entities by TypeORM's own schema diff (what
 * `migration:generate` would write) and, where that diff does not look, by the order of each index's
 * columns and the columns of each foreign key.
 */
describe('schema parity: the entities declare what the migrations create', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;
  let tables: Table[];
  let serviceEntities: string[];

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    // migrated as the service migrates at start (MIGRATIONS_RUN)
    const service = await createTestContext([], { env: { DATABASE_URL: scratch.url } });
    serviceEntities = service.get(DataSource).entityMetadatas.map((m) => m.tableName);
    await service.close();
    dataSource = await schemaDataSource(parseDatabaseUrl(scratch.url), databaseSchema);
    await dataSource.initialize();
    const runner = dataSource.createQueryRunner();
    try {
      tables = await runner.getTables(await tableNames(dataSource));
    } finally {
      await runner.release();
    }
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await scratch?.drop();
  });

  async function diff(): Promise<string[]> {
    const log = await dataSource.driver.createSchemaBuilder().log();
    return log.upQueries.map((query) => query.query);
  }

  const tableOf = (metadata: EntityMetadata) => tables.find((t) => t.name === metadata.tableName)!;

  it("finds nothing to change with TypeORM's schema diff", async () => {
    const queries = await diff();
    // every statement in the failure message, as migration:generate would write them
    expect(queries.join(';\n')).toBe('');
  });

  it('has an entity for every table the migrations create', () => {
    const withoutEntity = tables
      .map((t) => t.name)
      .filter((name) => name !== 'migrations')
      .filter((name) => !dataSource.entityMetadatas.some((m) => m.tableName === name));
    expect(withoutEntity).toEqual([]);
  });

  it("compares the service's entities: the TypeORM CLI's data source has the same", () => {
    expect(serviceEntities.sort()).toEqual(dataSource.entityMetadatas.map((m) => m.tableName).sort());
    expect(serviceEntities).toHaveLength(entities.length);
  });

  it('declares each index with the columns in the order the migrations give them', async () => {
    const declared = dataSource.entityMetadatas.flatMap((m) =>
      m.indices.map(
        (index) => `${m.tableName}.${index.name} (${index.columns.map((c) => c.databaseName).join(', ')})`,
      ),
    );
    const created: string[] = [];
    for (const metadata of dataSource.entityMetadatas) {
      for (const index of metadata.indices) {
        const columns = await indexColumns(dataSource, metadata.tableName, index.name);
        created.push(`${metadata.tableName}.${index.name} (${columns.join(', ')})`);
      }
    }
    expect(declared).toEqual(created);
  });

  it('declares each foreign key on the columns and referenced columns the migrations give it', () => {
    const pairs = (columns: string[], referenced: string[]) =>
      columns
        .map((c, i) => `${c}->${referenced[i]}`)
        .sort()
        .join(', ');
    const declared = dataSource.entityMetadatas.flatMap((m) =>
      m.foreignKeys.map(
        (fk) =>
          `${m.tableName}.${fk.name} ${fk.referencedTablePath} (${pairs(fk.columnNames, fk.referencedColumnNames)})`,
      ),
    );
    const created = dataSource.entityMetadatas.flatMap((m) =>
      m.foreignKeys.map((fk) => {
        const key = tableOf(m).foreignKeys.find((k) => k.name === fk.name);
        return `${m.tableName}.${fk.name} ${key?.referencedTableName} (${pairs(key?.columnNames ?? [], key?.referencedColumnNames ?? [])})`;
      }),
    );
    expect(declared).toEqual(created);
  });

  it('declares the byte-for-byte collation of each lower-cased key column (MySQL; SQLite has none)', () => {
    const collations = (pick: (m: EntityMetadata, column: string) => string | undefined) =>
      dataSource.entityMetadatas.flatMap((m) =>
        m.columns.map((c) => `${m.tableName}.${c.databaseName} ${pick(m, c.databaseName) ?? '-'}`),
      );
    const declared = collations((m, name) => m.columns.find((c) => c.databaseName === name)?.collation);
    const created = collations((m, name) => tableOf(m).columns.find((c) => c.name === name)?.collation);
    expect(declared).toEqual(created);
    if (engineOf(dataSource) === 'mysql') {
      // NO PAD binary on either server (migration 1763700000900), and no column left PAD SPACE
      expect(declared).toContain(
        `leads.email_normalized ${dataSource.options.type === 'mariadb' ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin'}`,
      );
      expect(created.filter((c) => c.endsWith(' utf8mb4_bin'))).toEqual([]);
    }
  });

  describe('fails when an entity and the migrations differ', () => {
    // The entities' metadata is changed in memory only, in this test's data source.
    it('reports an index that an entity no longer declares', async () => {
      const leads = dataSource.getMetadata('leads');
      const index = leads.indices.find((i) => i.name === 'ix_leads_partner_created')!;
      leads.indices.splice(leads.indices.indexOf(index), 1);
      try {
        expect((await diff()).join('\n')).toMatch(/DROP INDEX .ix_leads_partner_created/);
      } finally {
        leads.indices.push(index);
      }
    });

    it('reports a foreign key that an entity no longer declares', async () => {
      const contacts = dataSource.getMetadata('contacts');
      const key = contacts.foreignKeys.find((fk) => fk.name === 'fk_contacts_lead')!;
      contacts.foreignKeys.splice(contacts.foreignKeys.indexOf(key), 1);
      try {
        expect((await diff()).join('\n')).toMatch(/contacts/);
      } finally {
        contacts.foreignKeys.push(key);
      }
    });

    it('reports a column whose length differs', async () => {
      const column = dataSource.getMetadata('api_keys').findColumnWithPropertyName('keyPrefix')!;
      column.length = '32';
      try {
        expect((await diff()).join('\n')).toMatch(/key_prefix/);
      } finally {
        column.length = '16';
      }
    });

    it('passes again once they agree', async () => {
      expect(await diff()).toEqual([]);
    });
  });
});

/** The tables of the database under test (TypeORM's own included), read from the database itself. */
async function tableNames(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query(
    engineOf(dataSource) === 'sqlite'
      ? `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'`
      : `SELECT TABLE_NAME AS name FROM information_schema.TABLES
          WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'`,
  )) as { name: string }[];
  return rows.map((r) => r.name);
}

/** The columns of one index, in their order, read from the database itself. */
async function indexColumns(dataSource: DataSource, table: string, index: string): Promise<string[]> {
  if (engineOf(dataSource) === 'sqlite') {
    const rows = (await dataSource.query(`PRAGMA index_info("${index}")`)) as {
      seqno: number;
      name: string;
    }[];
    return rows.sort((a, b) => a.seqno - b.seqno).map((r) => r.name);
  }
  const rows = (await dataSource.query(
    `SELECT COLUMN_NAME AS name FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ? ORDER BY SEQ_IN_INDEX`,
    [table, index],
  )) as { name: string }[];
  return rows.map((r) => r.name);
}
