import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import BetterSqlite3 from 'better-sqlite3';
import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { DatabaseEngine, engineOf, isQueryTimeout, sqliteDateTime } from './database-engine';
import { mysqlConnectionOptions } from './data-source-options';

/** A value bound to a `?` placeholder. Dates and booleans are converted for the engine. */
export type SqlValue = string | number | boolean | Date | null;

export interface WriteResult {
  /** rows changed by an UPDATE/DELETE, or inserted */
  affected: number;
  /** the generated id of a single-row INSERT (0 otherwise) */
  insertId: number;
}

/** How long one SQLite statement may block the event loop waiting for another process's lock. */
const SQLITE_BLOCKING_WAIT_MS = 20;
/** Set while SqlDatabase.sqliteUnit runs the work of a UnitOfWork. */
const SQLITE_TRANSACTION = 'prm.sqliteTransaction';

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
  private readonly logger = new Logger(SqlDatabase.name);
  /**
   * Prepared statements by connection and by the shape of their rows (objects, arrays, values):
   * keyed by the SQL text itself, a string made once whose hash V8 keeps (a key made per call, such
   * as `raw:` + the text, was hashed again on every call: 5% of a GET lead for a lead's 1 KB SELECT).
   */
  private readonly statements = new WeakMap<BetterSqlite3.Database, StatementCache>();
  private reader: BetterSqlite3.Database | null | undefined;
  /** `PRAGMA data_version` prepared on the read connection (commitVersion). */
  private dataVersion: BetterSqlite3.Statement | undefined;
  /** The read connection's BEGIN and COMMIT, and the writer's total_changes() when it began. */
  private snapshot: ReadSnapshot | undefined;
  /** writer connections whose busy timeout was shortened for the service's transactions */
  private readonly shortBusyWait = new WeakSet<BetterSqlite3.Database>();
  private authPool: MysqlPool | undefined;
  /** SQLite: the open write transaction and the units in it (group commit), or null. */
  private batch: SqliteBatch | null = null;
  private readonly timeoutMs: number;
  /** Seconds for the MySQL session lock waits: below the request's bound, so a lock wait fails first. */
  private readonly lockWaitSeconds: number;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly cls: ClsService,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    this.engine = engineOf(dataSource);
    this.limitOffset = this.engine === 'sqlite' ? 'LIMIT ?+0 OFFSET ?' : 'LIMIT ? OFFSET ?';
    this.timeoutMs = config.databaseTimeoutMs;
    this.lockWaitSeconds = Math.max(1, Math.floor((config.databaseTimeoutMs * 0.6) / 1000));
    if (this.engine === 'mysql' && dataSource.isInitialized) this.boundSessions(this.mainPool());
  }

  /** Whether the current context runs inside a UnitOfWork transaction. */
  get inTransaction(): boolean {
    if (!this.cls.isActive()) return false;
    return this.engine === 'sqlite'
      ? this.cls.get(SQLITE_TRANSACTION) === true
      : this.txHost.isTransactionActive();
  }

  /** Whether reads outside a transaction have a connection of their own (SQLite file databases). */
  get hasReadConnection(): boolean {
    return this.readConnection() !== null;
  }

  /**
   * SQLite file: the read connection's `PRAGMA data_version`, which changes whenever another
   * connection (the writer of this process, or any other process) has committed a change since,
   * and never otherwise; a few microseconds, no page read. Null for MySQL and an in-memory
   * database, which have no such number (UnitOfWork.commitVersion).
   */
  commitVersion(): number | null {
    const reader = this.snapshotReader();
    if (!reader) return null;
    this.dataVersion ??= reader.prepare('PRAGMA data_version').pluck();
    return this.dataVersion.get() as number;
  }

  /**
   * Reads made from now on see every change committed before this call, by this process or any
   * other: the read transaction the read connection holds (rule 19) ends here. Called as each
   * request arrives. Nothing to do on MySQL and an in-memory SQLite, whose reads take no snapshot.
   */
  endReadSnapshot(): void {
    this.snapshot?.end();
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

  /**
   * SQLite: runs `work` between BEGIN IMMEDIATE and COMMIT on the writing connection, and answers
   * once it is committed. The UnitOfWork uses the two steps below instead, to commit several units
   * at once; this is the one-unit form.
   */
  async sqliteTransaction<T>(work: () => Promise<T>): Promise<T> {
    const unit = await this.sqliteUnit(work);
    await this.commitSqliteBatch();
    await unit.committed;
    return unit.value;
  }

  /**
   * SQLite group commit, step 1: runs one unit's `work` inside the open write transaction (BEGIN
   * IMMEDIATE if none is open), between a SAVEPOINT and its RELEASE. A unit that fails is rolled
   * back to its savepoint and leaves the units before it intact. The caller must not answer before
   * `committed` resolves: until then the unit is not saved (docs/operations.md "Group commit").
   * If SQLite has given up the whole transaction (a full disk, an I/O error), every unit of the
   * batch fails with the error, since none of them was saved.
   */
  async sqliteUnit<T>(work: () => Promise<T>): Promise<{ value: T; committed: Promise<void> }> {
    const db = this.writer();
    if (!this.batch) {
      await this.beginImmediate(db);
      this.batch = new SqliteBatch();
    }
    const batch = this.batch;
    batch.units += 1;
    db.exec('SAVEPOINT unit_of_work');
    this.cls.set(SQLITE_TRANSACTION, true);
    try {
      const value = await work();
      db.exec('RELEASE unit_of_work');
      return { value, committed: batch.committed };
    } catch (error) {
      await this.rollBackUnit(batch, error);
      throw error;
    } finally {
      this.cls.set(SQLITE_TRANSACTION, false);
    }
  }

  /** Units in the open SQLite write transaction, not yet committed (0 when none is open). */
  get sqliteBatchSize(): number {
    return this.batch?.units ?? 0;
  }

  /**
   * SQLite group commit, step 2: commits the open write transaction, if any, and settles every
   * unit in it. After a failed COMMIT the connection is rolled back, or closed and reopened if it
   * cannot leave its transaction: no later work runs inside a transaction that will never commit.
   */
  async commitSqliteBatch(): Promise<void> {
    const batch = this.batch;
    if (!batch) return;
    this.batch = null;
    // Reads after this COMMIT must see it (rule 19); and a read transaction left open would keep
    // the COMMIT's checkpoint from copying the frames it holds.
    this.endReadSnapshot();
    try {
      this.writer().exec('COMMIT');
    } catch (error) {
      await this.leaveFailedTransaction();
      batch.settle(error);
      return;
    }
    batch.settle();
  }

  private async rollBackUnit(batch: SqliteBatch, error: unknown): Promise<void> {
    const db = this.writer();
    if (db.inTransaction) {
      try {
        db.exec('ROLLBACK TO unit_of_work');
        db.exec('RELEASE unit_of_work');
        return;
      } catch (rollbackError) {
        this.logger.error(`ROLLBACK TO SAVEPOINT failed: ${(rollbackError as Error).message}`);
      }
    }
    // The transaction is gone, or cannot be trusted: so are the earlier units of the batch.
    this.batch = null;
    await this.leaveFailedTransaction();
    batch.settle(error);
  }

  /**
   * Takes SQLite's write lock. Another process writing the same file (the bulk import beside the
   * server, a second instance) makes BEGIN IMMEDIATE fail with SQLITE_BUSY; waiting inside SQLite
   * (busy_timeout) would block the event loop and with it every request, so the writer's busy
   * timeout is short and the wait happens here, between attempts, up to the database bound.
   */
  private async beginImmediate(db: BetterSqlite3.Database): Promise<void> {
    if (!this.shortBusyWait.has(db)) {
      db.pragma(`busy_timeout = ${SQLITE_BLOCKING_WAIT_MS}`);
      this.shortBusyWait.add(db);
    }
    const giveUpAt = Date.now() + this.timeoutMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= giveUpAt) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.reader?.close();
    this.reader = null;
    this.dataVersion = undefined;
    this.snapshot = undefined;
    const pool = this.authPool;
    this.authPool = undefined;
    if (pool) await new Promise<void>((resolve) => pool.end(() => resolve()));
  }

  private async leaveFailedTransaction(): Promise<void> {
    const db = this.writer();
    if (db.inTransaction) {
      try {
        db.exec('ROLLBACK');
      } catch (error) {
        this.logger.error(`ROLLBACK failed: ${(error as Error).message}`);
      }
    }
    if (!db.inTransaction) return;
    // The connection cannot leave its transaction: close it (SQLite rolls back on close) and open
    // a new one, so that the next work starts clean.
    this.logger.error('the SQLite connection is stuck in a transaction; reopening it');
    const driver = this.dataSource.driver as unknown as {
      databaseConnection: BetterSqlite3.Database;
      createDatabaseConnection(): Promise<BetterSqlite3.Database>;
    };
    db.close();
    driver.databaseConnection = await driver.createDatabaseConnection();
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

  /**
   * Work inside a transaction (a UnitOfWork unit, or a TypeORM transaction) uses the writer, so it
   * sees its own changes. Every other statement of this class reads on the read connection, which
   * sees the last commit and never the uncommitted units of an open group-commit batch (the writer
   * would show them). Queries made through TypeORM itself always use its one connection, the writer,
   * which is why repositories make every read outside a transaction through this class.
   */
  private sqliteConnection(): BetterSqlite3.Database {
    if (this.inTransaction || (this.cls.isActive() && this.txHost.isTransactionActive()))
      return this.writer();
    return this.snapshotReader() ?? this.writer();
  }

  /**
   * The read connection, inside a read transaction shared by the reads of one turn of the event
   * loop (docs/performance.md, rule 19). Outside a transaction each SQLite statement takes and
   * releases WAL's read lock, two system calls (`fcntl`) and some 4.5 µs, more than reading a
   * lead by id; in one read transaction only the first statement does. The transaction ends when
   * a request arrives (`endReadSnapshot`), before this process commits, when this process's
   * writing connection has changed rows since it began (a write outside a unit of work commits
   * at once), and at the end of the turn (setImmediate), whichever comes first. So a read sees
   * every change committed before the request it serves arrived, and every change this process
   * committed before it.
   */
  private snapshotReader(): BetterSqlite3.Database | null {
    const reader = this.readConnection();
    if (!reader) return null;
    const snapshot = (this.snapshot ??= new ReadSnapshot(reader));
    const changes = (this.prepared(this.writer(), TOTAL_CHANGES, 'arrays').get() as [number])[0];
    if (!reader.inTransaction || changes !== snapshot.writerChanges) snapshot.restart(changes);
    return reader;
  }

  private readConnection(): BetterSqlite3.Database | null {
    if (this.reader !== undefined) return this.reader;
    if (this.engine !== 'sqlite' || !this.dataSource.isInitialized) return null;
    const file = this.writer().name;
    this.reader = file === ':memory:' || file === '' ? null : new BetterSqlite3(file, { readonly: true });
    this.reader?.pragma(`busy_timeout = ${this.timeoutMs}`);
    return this.reader;
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
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mysql = require('mysql2') as { createPool(options: object): MysqlPool };
      this.authPool = mysql.createPool({
        ...mysqlConnectionOptions(this.config.database, this.timeoutMs),
        connectionLimit: 2,
        waitForConnections: true,
      });
      this.boundSessions(this.authPool);
    }
    return this.authPool;
  }

  /**
   * Every connection waits at most `lockWaitSeconds` for a row lock (innodb_lock_wait_timeout, 50 s
   * by default) or a table lock (lock_wait_timeout, a year by default). Connections opened before
   * this ran (TypeORM's first one, the migrations') get it too.
   */
  private boundSessions(pool: MysqlPool): void {
    const statement = `SET SESSION innodb_lock_wait_timeout = ${this.lockWaitSeconds}, lock_wait_timeout = ${this.lockWaitSeconds}`;
    pool.on('connection', (connection) => connection.query(statement));
    const open = (pool as unknown as { _freeConnections?: { toArray(): MysqlConnection[] } })
      ._freeConnections;
    for (const connection of open?.toArray() ?? []) connection.query(statement);
  }
}

function sqliteValues(params: readonly SqlValue[]): unknown[] {
  return params.map((value) =>
    value instanceof Date ? sqliteDateTime(value) : typeof value === 'boolean' ? (value ? 1 : 0) : value,
  );
}

/** One SQLite write transaction holding the work of one or more units, and their common outcome. */
class SqliteBatch {
  units = 0;
  readonly committed: Promise<void>;
  private resolve!: () => void;
  private reject!: (error: unknown) => void;

  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Units that failed on their own never wait for the outcome: a failed COMMIT after them must
    // not surface as an unhandled rejection.
    this.committed.catch(() => undefined);
  }

  settle(error?: unknown): void {
    if (error === undefined) this.resolve();
    else this.reject(error);
  }
}

interface StatementCache {
  objects: Map<string, BetterSqlite3.Statement>;
  arrays: Map<string, BetterSqlite3.Statement>;
  values: Map<string, BetterSqlite3.Statement>;
}

const TOTAL_CHANGES = 'SELECT total_changes()';

/** The read transaction of SqlDatabase's read connection (rule 19) and its statements. */
class ReadSnapshot {
  /** the writing connection's total_changes() when the read transaction began */
  writerChanges = 0;
  private readonly begin: BetterSqlite3.Statement;
  private readonly commit: BetterSqlite3.Statement;
  private endScheduled = false;
  private readonly endOfTurn = (): void => {
    this.endScheduled = false;
    this.end();
  };

  constructor(private readonly reader: BetterSqlite3.Database) {
    this.begin = reader.prepare('BEGIN');
    this.commit = reader.prepare('COMMIT');
  }

  /** Ends the read transaction, if one is open. */
  end(): void {
    if (this.reader.open && this.reader.inTransaction) this.commit.run();
  }

  /**
   * Ends the open read transaction, if any, and begins another, which ends at the end of this turn
   * of the event loop if nothing ends it before.
   */
  restart(writerChanges: number): void {
    this.end();
    this.begin.run();
    this.writerChanges = writerChanges;
    if (this.endScheduled) return;
    this.endScheduled = true;
    setImmediate(this.endOfTurn);
  }
}
