import * as mysql from 'mysql2/promise';
import type { DataSource, DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../../../config/app-config';
import { dataSourceOptions, mysqlConnectionOptions } from './data-source-options';
import { EngineAwareDataSource } from './engine-aware-data-source';
import type { DatabaseSchema } from './database-schema';

/**
 * A data source for comparing the entities with a database (TypeORM's schema diff, the TypeORM CLI's
 * `migration:generate`), not initialised: the server's data source plus one difference. TypeORM reads
 * a MariaDB column's default right only when told the server is MariaDB (type 'mariadb'): with type
 * 'mysql' every nullable column of a MariaDB table looks changed, its default read as the text 'NULL'.
 * The server keeps type 'mysql' on MariaDB, which its queries do not notice.
 */
export async function schemaDataSource(database: DatabaseConfig, schema: DatabaseSchema): Promise<DataSource> {
  const options = dataSourceOptions(database);
  const mariadb = database.kind === 'mysql' && (await isMariaDb(database));
  return new EngineAwareDataSource({
    ...options,
    ...(mariadb ? { type: 'mariadb' } : {}),
    entities: schema.entities,
    migrations: schema.migrations,
    synchronize: false,
    migrationsRun: false,
    logging: false,
  } as DataSourceOptions);
}

async function isMariaDb(database: Extract<DatabaseConfig, { kind: 'mysql' }>): Promise<boolean> {
  const connection = await mysql.createConnection(mysqlConnectionOptions(database, 5000));
  try {
    const [rows] = await connection.query('SELECT VERSION() AS version');
    return /mariadb/i.test(String((rows as { version: string }[])[0]?.version));
  } finally {
    await connection.end();
  }
}
