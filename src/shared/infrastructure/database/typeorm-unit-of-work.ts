import { Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { StoreUnavailableError, UnitOfWork } from '../../application/unit-of-work';
import {
  DatabaseEngine,
  codeOf,
  engineOf,
  isDeadlock,
  isLockWaitTimeout,
  isQueryTimeout,
} from './database-engine';
import { SqlDatabase } from './sql-database';

const DEADLOCK_RETRIES = 4;
/** SQLite group commit: at most this many units share one COMMIT, so the first is not kept long. */
const MAX_UNITS_PER_COMMIT = 32;

/** Errors of a database that cannot be reached at all: answered "unavailable", like a timeout. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
]);

/** Thrown into work that outlived its bound, so that it rolls back instead of committing late. */
class DeadlinePassed extends Error {}

/**
 * UnitOfWork over the one DataSource. Every unit is bounded by DATABASE_TIMEOUT_MS: waiting for
 * the SQLite writer, for a MySQL connection, for a lock or for a statement. Past the bound the
 * caller gets StoreUnavailableError (503) and the work, if it started, rolls back rather than
 * committing after the answer (docs/operations.md).
 *
 * - MySQL: transactions through @nestjs-cls/transactional, READ COMMITTED (a locking read followed
 *   by plain reads sees what the lock holder committed, and there are fewer gap locks); a deadlock
 *   victim is run again from the start, a few times, since it wrote nothing. A lock wait timeout is
 *   not a deadlock: it is answered at once.
 * - SQLite: one connection writes for the whole process, so top-level transactions are serialized
 *   here in a promise queue (otherwise two requests would interleave statements inside one SQLite
 *   transaction); units queued together share one COMMIT (group commit, below). SqlDatabase
 *   leaves the connection clean after any failure, including a failed COMMIT. Reads of a database file run at once on SqlDatabase's
 *   read connection.
 */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  private readonly logger = new Logger(TypeOrmUnitOfWork.name);
  private readonly engine: DatabaseEngine;
  private readonly timeoutMs: number;
  private queue: Promise<unknown> = Promise.resolve();
  /** SQLite: whether a COMMIT of the open batch is due at the end of this turn of the event loop. */
  private commitScheduled = false;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly cls: ClsService,
    private readonly sql: SqlDatabase,
    dataSource: DataSource,
    config: AppConfig,
  ) {
    super();
    this.engine = engineOf(dataSource);
    this.timeoutMs = config.databaseTimeoutMs;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.cls.isActive() && this.sql.inTransaction) return work();
    // A context of its own: the transaction's state must be seen by this work and what it awaits,
    // never by other work that happens to share an outer context (it would "join" a transaction
    // that is not its own).
    return this.cls.run(() => {
      return this.bounded((deadline) =>
        this.engine === 'sqlite'
          ? this.sqliteGroupCommit(deadline, work)
          : this.withDeadlockRetry(() =>
              this.txHost.withTransaction({ isolationLevel: 'READ COMMITTED' }, () => deadline.guard(work)),
            ),
      );
    });
  }

  read<T>(work: () => Promise<T>): Promise<T> {
    if (this.engine === 'mysql') return this.inContext(() => this.bounded(() => work()));
    if (this.cls.isActive() && this.sql.inTransaction) return work();
    // A SQLite file has a read connection that sees only committed rows and never waits: outside a
    // transaction SqlDatabase reads there, so the read needs no context of its own.
    if (this.sql.hasReadConnection) return work();
    // An in-memory database: the read waits its turn, and sees only committed rows.
    return this.inContext(() =>
      this.bounded(() =>
        this.serialized(async () => {
          await this.sql.commitSqliteBatch();
          return work();
        }),
      ),
    );
  }

  override commitVersion(): number | null {
    return this.sql.commitVersion();
  }

  override freshReads(): void {
    this.sql.endReadSnapshot();
  }

  /**
   * SQLite group commit: the units that arrive while a write transaction is open run one after
   * another inside it, each in a savepoint of its own, and are committed together. The COMMIT waits
   * for the end of the current turn of the event loop (setImmediate), so that every request whose
   * bytes arrived in the same turn joins the batch, and happens at once when the batch holds 32
   * units. One COMMIT writes each changed page once for the whole batch, where a COMMIT per unit
   * writes the shared pages (the last page of the leads table and of each index, the counts row)
   * once per unit. Every unit is answered only after the COMMIT that saves it; a unit that fails
   * leaves the others of its batch untouched (docs/operations.md).
   */
  private async sqliteGroupCommit<T>(deadline: Deadline, work: () => Promise<T>): Promise<T> {
    const unit = await this.serialized(async () => {
      try {
        deadline.check();
        return await this.sql.sqliteUnit(() => deadline.guard(work));
      } finally {
        if (this.sql.sqliteBatchSize >= MAX_UNITS_PER_COMMIT) await this.sql.commitSqliteBatch();
        else this.scheduleCommit();
      }
    });
    await unit.committed;
    return unit.value;
  }

  /** Commits the open batch at the end of this turn of the event loop, in its turn in the queue. */
  private scheduleCommit(): void {
    if (this.commitScheduled || this.sql.sqliteBatchSize === 0) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.commitScheduled = false;
      this.serialized(() => this.sql.commitSqliteBatch()).catch((error: unknown) =>
        this.logger.error(`SQLite COMMIT could not be completed: ${(error as Error).message}`),
      );
    });
  }

  private inContext<T>(fn: () => Promise<T>): Promise<T> {
    return this.cls.isActive() ? fn() : this.cls.run(fn);
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.queue.then(fn, fn);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Runs `fn` and answers within the bound: StoreUnavailableError when it takes longer, and the
   * database's "busy" errors translated to it. `deadline.guard(work)` refuses to start work, and
   * to let it commit, once the bound has passed.
   */
  private bounded<T>(fn: (deadline: Deadline) => Promise<T>): Promise<T> {
    const deadline = new Deadline();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (deadline.expire()) reject(new StoreUnavailableError('timeout'));
      }, this.timeoutMs);
      fn(deadline).then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(translate(error));
        },
      );
    });
  }

  private async withDeadlockRetry<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (!isDeadlock(error) || attempt > DEADLOCK_RETRIES) throw error;
        this.logger.warn(`transaction deadlocked, retrying (attempt ${attempt + 1})`);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  }
}

/**
 * The state of one bounded unit: running, committing (the answer now waits for the COMMIT, whose
 * own statement timeout bounds it), or expired (answered 503; the work must not commit).
 */
class Deadline {
  private state: 'running' | 'committing' | 'expired' = 'running';

  /** Called by the timer: whether the unit is now expired (false once it is committing). */
  expire(): boolean {
    if (this.state === 'committing') return false;
    this.state = 'expired';
    return true;
  }

  check(): void {
    if (this.state === 'expired') throw new DeadlinePassed();
  }

  async guard<T>(work: () => Promise<T>): Promise<T> {
    this.check();
    const result = await work();
    this.check();
    this.state = 'committing';
    return result;
  }
}

function translate(error: unknown): unknown {
  if (error instanceof DeadlinePassed) return new StoreUnavailableError('timeout');
  if (isLockWaitTimeout(error)) return new StoreUnavailableError('lock_wait');
  if (isQueryTimeout(error)) return new StoreUnavailableError('timeout');
  const code = codeOf(error);
  if (code !== undefined && UNREACHABLE.has(code)) return new StoreUnavailableError('busy');
  return error;
}
