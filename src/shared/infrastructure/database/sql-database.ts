import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import BetterSqlite3 from 'better-sqlite3';
import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { DatabaseEngine, engineOf, isQueryTimeout, sqliteDateTime } from './database-engine';
import { mysqlConnectionOptions, mysqlWithBoundedLockWaits } from './data-source-options';

/** A value bound to a `?` placeholder. Dates and booleans are converted for the engine. */
export type SqlValue = string | number | boolean | Date | null;

export interface WriteResult {
  /** rows changed by an UPDATE/DELETE, or inserted */
  affected: number;
  /** the generated id of a single-row INSERT (0 otherwise) */
  insertId: number;
}


/**
 * `auth`: the API-key lookup of every request. On MySQL it has two connections of its own, so a
 * wrong key is refused at once even while every connection of the main pool is taken.
 */
export interface SqlOptions {
  lane?: 'auth';
}

/** A DATETIME read back by a hand-written query: a Date from mysql2, UTC text from SQLite. */
export function dateFromRow(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  if (text.length === 23 && text.charCodeAt(10) === 32) return parseSqliteDateTime(text);
  return new Date(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
}

/** `YYYY-MM-DD HH:MM:SS.SSS` read digit by digit: a page of leads holds 40 of them (2.7x faster). */
function parseSqliteDateTime(t: string): Date {
  const d = (i: number) => t.charCodeAt(i) - 48;
  return new Date(
    Date.UTC(
      d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3),
      d(5) * 10 + d(6) - 1,
      d(8) * 10 + d(9),
      d(11) * 10 + d(12),
      d(14) * 10 + d(15),
      d(17) * 10 + d(18),
      d(20) * 100 + d(21) * 10 + d(22),
    ),
  );
}

export function nullableDateFromRow(value: unknown): Date | null {
  return value === null || value === undefined ? null : dateFromRow(value);
}

type MysqlCallback = (error: Error | null, result: unknown) => void;
interface MysqlConnection {
  execute(
    options: { sql: string; rowsAsArray: boolean; timeout: number },
    values: unknown[],
    callback: MysqlCallback,
  ): void;
  query(sql: string, callback?: MysqlCallback): void;
  release(): void;
  destroy(): void;
}
interface MysqlPool {
  getConnection(callback: (error: Error | null, connection: MysqlConnection) => void): void;
  on(event: 'connection', listener: (connection: MysqlConnection) => void): void;
  end(callback?: (error?: Error) => void): void;
}

/**
 * Hand-written SQL for the repositories, through the one TypeORM DataSource: the statements of the
 * hot paths (authentication, reading and listing leads, creating and approving them) cost what the
 * engine costs, not what building and hydrating a TypeORM query costs (docs/performance.md).
 *
 * - SQLite: statements are prepared once per connection and kept. Inside a transaction (or any
 *   write) they run on TypeORM's connection, which the UnitOfWork serializes. A read outside a
 *   transaction (UnitOfWork.read, or any other) runs on a second, read-only connection to the same
 *   file: in WAL mode it sees exactly what is committed and never waits for a writer. An in-memory
 *   database has no second connection, so its reads share the writer's connection and queue.
 * - MySQL: prepared statements (`execute`) on the transaction's connection, or on the pool.
 */
@Injectable()
export class SqlDatabase implements OnApplicationShutdown {
  readonly engine: DatabaseEngine;
  /**
   * `LIMIT ? OFFSET ?` for a page read by a statement kept prepared. On SQLite a LIMIT bound to a
   * parameter is one the query planner may use, so binding it marks the statement to be compiled
   * again on every run (docs/performance.md, rule 11): `?+0` is the same number without that
   * (a page of 20 ids: 19 µs with `LIMIT ?`, 10 µs with `LIMIT ?+0`).
   */
  readonly limitOffset: string;
  /**
   * Prepared statements by connection and by the shape of their rows (objects, arrays, values):
   * keyed by the SQL text itself, a string made once whose hash V8 keeps (a key made per call, such
   * as `raw:` + the text, was hashed again on every call: 5% of a GET lead for a lead's 1 KB SELECT).
   */
  private readonly statements = new WeakMap<BetterSqlite3.Database, StatementCache>();
  private authPool: MysqlPool | undefined;
  private readonly timeoutMs: number;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly cls: ClsService,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    this.engine = engineOf(dataSource);
    this.limitOffset = this.engine === 'sqlite' ? 'LIMIT ?+0 OFFSET ?' : 'LIMIT ? OFFSET ?';
    this.timeoutMs = config.databaseTimeoutMs;
  }

  /** Whether the current context runs inside a UnitOfWork transaction. */
  get inTransaction(): boolean {
    return this.cls.isActive() && this.txHost.isTransactionActive();
  }

  async all<T>(sql: string, params: readonly SqlValue[] = [], options: SqlOptions = {}): Promise<T[]> {
    if (this.engine === 'sqlite')
      return this.prepared(this.sqliteConnection(), sql).all(...sqliteValues(params)) as T[];
    return (await this.mysqlExecute(sql, params, false, options)) as T[];
  }

  /**
   * Rows as arrays of column values, in the order of the SELECT list: much cheaper than objects
   * for wide rows on both drivers (EntitySql turns them into entity-shaped objects).
   */
  async rows(sql: string, params: readonly SqlValue[] = []): Promise<unknown[][]> {
    if (this.engine === 'sqlite') {
      return this.prepared(this.sqliteConnection(), sql, 'arrays').all(
        ...sqliteValues(params),
      ) as unknown[][];
    }
    return (await this.mysqlExecute(sql, params, true)) as unknown[][];
  }

  /**
   * The SELECT list of a statement read by `packedRows`: on SQLite the columns packed into one JSON
   * array per row, on MySQL the columns themselves. `columns` is a plain list, without aliases.
   */
  packedColumns(columns: string): string {
    return this.engine === 'sqlite' ? `json_array(${columns})` : columns;
  }

  /**
   * `rows` for a statement whose SELECT list is `packedColumns(...)`: the same arrays, read faster
   * on SQLite for wide rows. better-sqlite3 makes a JavaScript value of each column through V8's
   * API, about 0.25 µs a value: 20 leads of 32 columns took 162 µs that way, and 82 µs as 20 JSON
   * arrays built by SQLite and parsed by `JSON.parse` (docs/performance.md, rule 21). The values are
   * the same: integers, text and nulls (no BLOB or REAL column is read this way).
   */
  async packedRows(sql: string, params: readonly SqlValue[] = []): Promise<unknown[][]> {
    if (this.engine !== 'sqlite') return (await this.mysqlExecute(sql, params, true)) as unknown[][];
    const packed = this.prepared(this.sqliteConnection(), sql, 'values').all(
      ...sqliteValues(params),
    ) as string[];
    const rows = new Array<unknown[]>(packed.length);
    for (let i = 0; i < packed.length; i++) rows[i] = JSON.parse(packed[i]!) as unknown[];
    return rows;
  }

  async one<T>(
    sql: string,
    params: readonly SqlValue[] = [],
    options: SqlOptions = {},
  ): Promise<T | undefined> {
    if (this.engine === 'sqlite')
      return this.prepared(this.sqliteConnection(), sql).get(...sqliteValues(params)) as T | undefined;
    const rows = (await this.mysqlExecute(sql, params, false, options)) as T[];
    return rows[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<WriteResult> {
    if (this.engine === 'sqlite') {
      // The one SQLite connection that writes is shared: a write outside the serialized
      // transactions would land in whichever transaction happens to be open.
      if (!this.inTransaction) throw new Error('a write must run inside UnitOfWork.run');
      const result = this.prepared(this.writer(), sql).run(...sqliteValues(params));
      return { affected: result.changes, insertId: Number(result.lastInsertRowid) };
    }
    const result = (await this.mysqlExecute(sql, params)) as { affectedRows: number; insertId: number };
    return { affected: result.affectedRows, insertId: Number(result.insertId) };
  }

  async onApplicationShutdown(): Promise<void> {
    const pool = this.authPool;
    this.authPool = undefined;
    if (pool) await new Promise<void>((resolve) => pool.end(() => resolve()));
  }

  /**
   * The statement for `sql` on this connection, prepared once per shape of its rows: objects,
   * arrays (`raw`) or the first column's value alone (`pluck`).
   */
  private prepared(
    connection: BetterSqlite3.Database,
    sql: string,
    shape: keyof StatementCache = 'objects',
  ): BetterSqlite3.Statement {
    let caches = this.statements.get(connection);
    if (!caches) {
      caches = { objects: new Map(), arrays: new Map(), values: new Map() };
      this.statements.set(connection, caches);
    }
    const cache = caches[shape];
    let statement = cache.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      if (shape === 'arrays') statement.raw(true);
      else if (shape === 'values') statement.pluck(true);
      cache.set(sql, statement);
    }
    return statement;
  }

  private writer(): BetterSqlite3.Database {
    return (this.dataSource.driver as unknown as { databaseConnection: BetterSqlite3.Database })
      .databaseConnection;
  }

  private sqliteConnection(): BetterSqlite3.Database {
    return this.writer();
  }

  private async mysqlExecute(
    sql: string,
    params: readonly SqlValue[],
    rowsAsArray = false,
    options: SqlOptions = {},
  ): Promise<unknown> {
    const values = params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
    if (this.inTransaction) {
      const connection = (await this.txHost.tx.queryRunner!.connect()) as MysqlConnection;
      return this.mysqlStatement(connection, sql, values, rowsAsArray);
    }
    const pool = options.lane === 'auth' ? this.authLane() : this.mainPool();
    const connection = await new Promise<MysqlConnection>((resolve, reject) =>
      pool.getConnection((error, c) => (error ? reject(error) : resolve(c))),
    );
    try {
      const result = await this.mysqlStatement(connection, sql, values, rowsAsArray);
      connection.release();
      return result;
    } catch (error) {
      // A statement that timed out is still pending on that connection: it must not be reused.
      if (isQueryTimeout(error)) connection.destroy();
      else connection.release();
      throw error;
    }
  }

  private mysqlStatement(
    connection: MysqlConnection,
    sql: string,
    values: unknown[],
    rowsAsArray: boolean,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      connection.execute({ sql, rowsAsArray, timeout: this.timeoutMs }, values, (error, result) =>
        error ? reject(error) : resolve(result),
      );
    });
  }

  private mainPool(): MysqlPool {
    return (this.dataSource.driver as unknown as { pool: MysqlPool }).pool;
  }

  private authLane(): MysqlPool {
    if (!this.authPool) {
      if (this.config.database.kind !== 'mysql') throw new Error('the auth lane is a MySQL pool');
      this.authPool = mysqlWithBoundedLockWaits(this.timeoutMs).createPool({
        ...mysqlConnectionOptions(this.config.database, this.timeoutMs),
        connectionLimit: 2,
        waitForConnections: true,
      }) as unknown as MysqlPool;
    }
    return this.authPool;
  }
}

function sqliteValues(params: readonly SqlValue[]): unknown[] {
  return params.map((value) =>
    value instanceof Date ? sqliteDateTime(value) : typeof value === 'boolean' ? (value ? 1 : 0) : value,
  );
}

interface StatementCache {
  objects: Map<string, BetterSqlite3.Statement>;
  arrays: Map<string, BetterSqlite3.Statement>;
  values: Map<string, BetterSqlite3.Statement>;
}

