import { Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { AppConfig } from '../../../config/app-config';
import { StoreUnavailableError, UnitOfWork } from '../../application/unit-of-work';
import { codeOf, isDeadlock, isLockWaitTimeout, isQueryTimeout, isWriteLockBusy } from './database-errors';
import { DatabaseDialect } from './database-dialect';

const DEADLOCK_RETRIES = 4;

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
 * UnitOfWork on @nestjs-cls/transactional's TransactionHost: `run` is one TypeORM transaction, which
 * every repository joins through `txHost.tx`; a nested `run` joins the outer one.
 *
 * - Every unit is bounded by DATABASE_TIMEOUT_MS: waiting for its turn, for a connection, for a lock
 *   or for a statement. Past the bound the caller gets StoreUnavailableError (503) and the work, if it
 *   started, rolls back rather than committing after the answer (docs/operations.md).
 * - MySQL: READ COMMITTED (a locking read followed by plain reads sees what the lock holder
 *   committed, and there are fewer gap locks); a deadlock victim is run again from the start, a few
 *   times, since it wrote nothing. A lock wait timeout is not a deadlock: it is answered at once.
 * - SQLite: TypeORM has one connection, so units take turns (two transactions must never interleave
 *   their statements on it), and so do reads, which must never see a unit that is not committed.
 */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  private readonly logger = new Logger(TypeOrmUnitOfWork.name);
  private readonly timeoutMs: number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly cls: ClsService,
    private readonly dialect: DatabaseDialect,
    config: AppConfig,
  ) {
    super();
    this.timeoutMs = config.databaseTimeoutMs;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.cls.isActive() && this.txHost.isTransactionActive()) return work();
    // A context of its own: the transaction must be seen by this work and what it awaits, never by
    // other work that happens to share an outer context (it would join a transaction not its own).
    return this.cls.run(() =>
      // Each attempt takes its own turn: while a unit waits to try again, reads and other units run.
      this.bounded((deadline) =>
        this.withConflictRetry(() => this.inTurn(() => this.transaction(() => deadline.guard(work)))),
      ),
    );
  }

  read<T>(work: () => Promise<T>): Promise<T> {
    if (this.cls.isActive() && this.txHost.isTransactionActive()) return work();
    const bounded = () => this.bounded((deadline) => this.inTurn(() => deadline.guard(work)));
    return this.cls.isActive() ? bounded() : this.cls.run(bounded);
  }

  /** One TypeORM transaction, at the engine's isolation level where it has a choice. */
  private transaction<T>(work: () => Promise<T>): Promise<T> {
    const { isolationLevel } = this.dialect;
    return isolationLevel
      ? this.txHost.withTransaction({ isolationLevel }, work)
      : this.txHost.withTransaction(work);
  }

  /** On one shared connection, `fn` waits for the units before it; on a pool it runs at once. */
  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.dialect.oneConnection) return fn();
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

  /**
   * Runs a unit that lost a race for the write again, from the start: it wrote nothing. On MySQL a
   * deadlock victim, a few times. On SQLite, a unit that could not take the write lock because
   * another process holds it or committed since the unit's first read (SQLITE_BUSY at once, not
   * after a wait: TypeORM begins transactions DEFERRED), after a short pause, until its bound.
   */
  private async withConflictRetry<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (isDeadlock(error)) {
          if (attempt > DEADLOCK_RETRIES) throw error;
          this.logger.warn(`transaction deadlocked, retrying (attempt ${attempt + 1})`);
          await pause(Math.random() * 20 * attempt);
        } else if (isWriteLockBusy(error)) {
          await pause(Math.min(2 ** attempt, 50));
        } else {
          throw error;
        }
      }
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

  async guard<T>(work: () => Promise<T>): Promise<T> {
    this.check();
    const result = await work();
    this.check();
    this.state = 'committing';
    return result;
  }

  private check(): void {
    if (this.state === 'expired') throw new DeadlinePassed();
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
