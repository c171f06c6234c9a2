import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import BetterSqlite3 from 'better-sqlite3';
import { ClsService } from 'nestjs-cls';
import { DataSource, EntityManager } from 'typeorm';
import { DatabaseEngine, engineOf } from './database-engine';

/** A value bound to a `?` placeholder. Dates and booleans are converted for the engine. */
export type SqlValue = string | number | boolean | Date | null;

export interface WriteResult {
  /** rows changed by an UPDATE/DELETE, or inserted */
  affected: number;
  /** the generated id of a single-row INSERT (0 otherwise) */
  insertId: number;
}

/** Set by UnitOfWork.read(): statements may run on the SQLite read connection. */
export const READ_ONLY_CONTEXT = 'prm.readOnly';

/** SQLite keeps DATETIME columns as UTC text `YYYY-MM-DD HH:MM:SS.SSS` (the form TypeORM writes). */
export function sqliteDateTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** A DATETIME read back by a hand-written query: a Date from mysql2, UTC text from SQLite. */
export function dateFromRow(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
}

export function nullableDateFromRow(value: unknown): Date | null {
  return value === null || value === undefined ? null : dateFromRow(value);
}

type MysqlCallback = (error: Error | null, result: unknown) => void;
interface MysqlExecutor {
  execute(options: { sql: string; rowsAsArray: boolean }, values: unknown[], callback: MysqlCallback): void;
}

/**
 * Hand-written SQL for the repositories, through the one TypeORM DataSource: the statements of the
 * hot paths (authentication, reading and listing leads, creating and approving them) cost what the
 * engine costs, not what building and hydrating a TypeORM query costs (docs/performance.md).
 *
 * - SQLite: statements are prepared once per connection and kept. Inside a transaction (or any
 *   write) they run on TypeORM's connection, which the UnitOfWork serializes. A read outside a
 *   transaction (UnitOfWork.read) runs on a second, read-only connection to the same file: in WAL
 *   mode it sees exactly what is committed and never waits for a writer. An in-memory database has
 *   no second connection, so its reads share the writer's connection and queue.
 * - MySQL: prepared statements (`execute`) on the transaction's connection, or on the pool.
 *
 * `manager` is the TypeORM EntityManager of the same context, for the code that still uses it.
 */
@Injectable()
export class SqlDatabase implements OnApplicationShutdown {
  readonly engine: DatabaseEngine;
  private readonly statements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();
  private reader: BetterSqlite3.Database | null | undefined;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly cls: ClsService,
    private readonly dataSource: DataSource,
  ) {
    this.engine = engineOf(dataSource);
  }

  /** Whether reads outside a transaction have a connection of their own (SQLite file databases). */
  get hasReadConnection(): boolean {
    return this.readConnection() !== null;
  }

  get manager(): EntityManager {
    return this.txHost.tx;
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    if (this.engine === 'sqlite')
      return this.prepared(this.sqliteConnection(), sql).all(...sqliteValues(params)) as T[];
    return (await this.mysqlExecute(sql, params)) as T[];
  }

  /**
   * Rows as arrays of column values, in the order of the SELECT list: much cheaper than objects
   * for wide rows on both drivers (EntitySql turns them into entity-shaped objects).
   */
  async rows(sql: string, params: readonly SqlValue[] = []): Promise<unknown[][]> {
    if (this.engine === 'sqlite') {
      return this.prepared(this.sqliteConnection(), sql, true).all(...sqliteValues(params)) as unknown[][];
    }
    return (await this.mysqlExecute(sql, params, true)) as unknown[][];
  }

  async one<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    if (this.engine === 'sqlite')
      return this.prepared(this.sqliteConnection(), sql).get(...sqliteValues(params)) as T | undefined;
    const rows = (await this.mysqlExecute(sql, params)) as T[];
    return rows[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<WriteResult> {
    if (this.engine === 'sqlite') {
      // The one SQLite connection that writes is shared: a write outside the serialized
      // transactions would land in whichever transaction happens to be open.
      if (!this.txHost.isTransactionActive()) throw new Error('a write must run inside UnitOfWork.run');
      const result = this.prepared(this.writer(), sql).run(...sqliteValues(params));
      return { affected: result.changes, insertId: Number(result.lastInsertRowid) };
    }
    const result = (await this.mysqlExecute(sql, params)) as { affectedRows: number; insertId: number };
    return { affected: result.affectedRows, insertId: Number(result.insertId) };
  }

  onApplicationShutdown(): void {
    this.reader?.close();
    this.reader = null;
  }

  private prepared(connection: BetterSqlite3.Database, sql: string, raw = false): BetterSqlite3.Statement {
    let cache = this.statements.get(connection);
    if (!cache) {
      cache = new Map();
      this.statements.set(connection, cache);
    }
    const key = raw ? `raw:${sql}` : sql;
    let statement = cache.get(key);
    if (!statement) {
      statement = connection.prepare(sql);
      if (raw) statement.raw(true);
      cache.set(key, statement);
    }
    return statement;
  }

  private writer(): BetterSqlite3.Database {
    return (this.dataSource.driver as unknown as { databaseConnection: BetterSqlite3.Database })
      .databaseConnection;
  }

  private sqliteConnection(): BetterSqlite3.Database {
    if (
      this.cls.isActive() &&
      this.cls.get(READ_ONLY_CONTEXT) === true &&
      !this.txHost.isTransactionActive()
    ) {
      return this.readConnection() ?? this.writer();
    }
    return this.writer();
  }

  private readConnection(): BetterSqlite3.Database | null {
    if (this.reader !== undefined) return this.reader;
    if (this.engine !== 'sqlite' || !this.dataSource.isInitialized) return null;
    const file = this.writer().name;
    this.reader = file === ':memory:' || file === '' ? null : new BetterSqlite3(file, { readonly: true });
    this.reader?.pragma('busy_timeout = 5000');
    return this.reader;
  }

  private async mysqlExecute(
    sql: string,
    params: readonly SqlValue[],
    rowsAsArray = false,
  ): Promise<unknown> {
    const queryRunner = this.txHost.isTransactionActive() ? this.txHost.tx.queryRunner : undefined;
    const executor = (
      queryRunner
        ? await queryRunner.connect()
        : (this.dataSource.driver as unknown as { pool: MysqlExecutor }).pool
    ) as MysqlExecutor;
    const values = params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
    return new Promise((resolve, reject) => {
      executor.execute({ sql, rowsAsArray }, values, (error, result) =>
        error ? reject(error) : resolve(result),
      );
    });
  }
}

function sqliteValues(params: readonly SqlValue[]): unknown[] {
  return params.map((value) =>
    value instanceof Date ? sqliteDateTime(value) : typeof value === 'boolean' ? (value ? 1 : 0) : value,
  );
}
