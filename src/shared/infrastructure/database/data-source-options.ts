import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import mysql2 from 'mysql2';
import type { DataSourceOptions } from 'typeorm';
import type { MysqlDataSourceOptions } from 'typeorm/driver/mysql/MysqlDataSourceOptions';
import type { DatabaseConfig } from '../../../config/app-config';

/** Connections of the main MySQL pool (the auth lane has its own: AUTH_LANE_POOL_SIZE). */
export const MYSQL_POOL_SIZE = 10;
const AUTH_LANE_POOL_SIZE = 2;

/**
 * What every mysql2 connection of the service uses: UTC on the wire, DATETIME(3) columns, BIGINT
 * ids returned as JS numbers (every id stays below 2^53, D2), TCP keep-alive, and a bounded
 * connect (docs/operations.md).
 */
export function mysqlConnectionOptions(
  database: Extract<DatabaseConfig, { kind: 'mysql' }>,
  timeoutMs: number,
) {
  return {
    host: database.host,
    port: database.port,
    user: database.user,
    password: database.password,
    database: database.database,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: false,
    connectTimeout: timeoutMs,
    enableKeepAlive: true,
  };
}

/**
 * How long one SQLite statement may block the event loop waiting for another process's write lock.
 * Longer waits happen between attempts, without blocking: the UnitOfWork runs a unit that found the
 * lock taken again until its bound, and the migration runner raises the timeout while it migrates.
 */
export const SQLITE_BLOCKING_WAIT_MS = 20;

/**
 * One data source for both engines. SQLite (better-sqlite3): WAL, foreign keys on, the short busy
 * timeout above. MySQL/MariaDB (mysql2): see mysqlConnectionOptions; every statement TypeORM sends
 * is bounded by the database timeout.
 */
export function dataSourceOptions(database: DatabaseConfig, timeoutMs = 5000): DataSourceOptions {
  if (database.kind === 'sqlite') {
    const inMemory = database.path === ':memory:';
    if (!inMemory) mkdirSync(dirname(database.path), { recursive: true });
    return {
      type: 'better-sqlite3',
      database: database.path,
      enableWAL: !inMemory,
      timeout: SQLITE_BLOCKING_WAIT_MS,
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('foreign_keys = ON');
        db.pragma('synchronous = NORMAL');
        // Temporary tables and the statement journal of a nested transaction stay in memory.
        db.pragma('temp_store = MEMORY');
      },
    };
  }
  const { user, ...connection } = mysqlConnectionOptions(database, timeoutMs);
  return {
    type: 'mysql',
    driver: mysqlWithBoundedLockWaits(timeoutMs),
    ...connection,
    username: user,
    poolSize: MYSQL_POOL_SIZE,
    maxQueryExecutionTime: timeoutMs,
    enableQueryTimeout: true,
    extra: {
      connectionLimit: MYSQL_POOL_SIZE,
      waitForConnections: true,
      enableKeepAlive: true,
      connectTimeout: timeoutMs,
    },
  };
}

/**
 * The options of the API-key lookup's own data source (AuthLane): a small MySQL pool beside the main
 * one, or null where the main data source serves it (SQLite).
 */
export function authLaneOptions(database: DatabaseConfig, timeoutMs: number): DataSourceOptions | null {
  if (database.kind !== 'mysql') return null;
  const options = dataSourceOptions(database, timeoutMs) as MysqlDataSourceOptions;
  return {
    ...options,
    poolSize: AUTH_LANE_POOL_SIZE,
    extra: { ...options.extra, connectionLimit: AUTH_LANE_POOL_SIZE },
  };
}

/**
 * mysql2, whose pools bound every connection's lock waits below the request's bound, so a lock wait
 * fails (and is answered 503) before the request's own timer: a row lock (innodb_lock_wait_timeout,
 * 50 s by default) or a table lock (lock_wait_timeout, a year by default). Given to TypeORM as its
 * `driver` option; the statement runs once per new connection, on mysql2's `connection` event.
 */
export function mysqlWithBoundedLockWaits(timeoutMs: number): typeof mysql2 {
  const seconds = Math.max(1, Math.floor((timeoutMs * 0.6) / 1000));
  const statement = `SET SESSION innodb_lock_wait_timeout = ${seconds}, lock_wait_timeout = ${seconds}`;
  return {
    ...mysql2,
    createPool: ((options: mysql2.PoolOptions) => {
      const pool = mysql2.createPool(options);
      pool.on('connection', (connection) => {
        connection.query(statement);
      });
      return pool;
    }) as typeof mysql2.createPool,
  };
}
