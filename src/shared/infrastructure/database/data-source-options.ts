import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../../../config/app-config';

/**
 * One data source for both engines. SQLite (better-sqlite3): WAL, busy timeout and foreign keys on.
 * MySQL/MariaDB (mysql2): UTC on the wire, DATETIME(3) columns, BIGINT ids returned as JS numbers
 * (every id stays below 2^53, D2).
 */
export function dataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  if (database.kind === 'sqlite') {
    const inMemory = database.path === ':memory:';
    if (!inMemory) mkdirSync(dirname(database.path), { recursive: true });
    return {
      type: 'better-sqlite3',
      database: database.path,
      enableWAL: !inMemory,
      timeout: 5000,
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('foreign_keys = ON');
        db.pragma('busy_timeout = 5000');
        db.pragma('synchronous = NORMAL');
      },
    };
  }
  return {
    type: 'mysql',
    host: database.host,
    port: database.port,
    username: database.user,
    password: database.password,
    database: database.database,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: false,
    poolSize: 10,
    extra: { connectionLimit: 10, waitForConnections: true, enableKeepAlive: true },
  };
}
