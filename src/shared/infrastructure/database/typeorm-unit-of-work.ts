import { Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../application/unit-of-work';
import { DatabaseEngine, engineOf, isDeadlock } from './database-engine';
import { READ_ONLY_CONTEXT, SqlDatabase } from './sql-database';

const DEADLOCK_RETRIES = 4;

/**
 * UnitOfWork on TypeORM through @nestjs-cls/transactional: repositories read the current
 * EntityManager from the TransactionHost, so they join the transaction without passing it around.
 *
 * - MySQL: READ COMMITTED (a locking read followed by plain reads sees what the lock holder
 *   committed, and there are fewer gap locks); a transaction InnoDB kills as a deadlock victim is
 *   run again from the start, a few times, since it wrote nothing.
 * - SQLite: one connection writes for the whole process, so top-level transactions are
 *   serialized here in a promise queue; otherwise two requests would interleave statements inside
 *   one SQLite transaction. Reads of a database file run at once on SqlDatabase's read connection.
 */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  private readonly logger = new Logger(TypeOrmUnitOfWork.name);
  private readonly engine: DatabaseEngine;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly cls: ClsService,
    private readonly sql: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.engine = engineOf(dataSource);
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.inContext(() => {
      if (this.txHost.isTransactionActive()) return work();
      return this.engine === 'sqlite'
        ? this.serialized(() => this.txHost.withTransaction(work))
        : this.withDeadlockRetry(() =>
            this.txHost.withTransaction({ isolationLevel: 'READ COMMITTED' }, work),
          );
    });
  }

  read<T>(work: () => Promise<T>): Promise<T> {
    if (this.engine === 'mysql') return this.inContext(work);
    if (this.cls.isActive() && this.txHost.isTransactionActive()) return work();
    // A SQLite file has a read connection that sees only committed rows: no need to wait. The
    // flag lives in a context of its own, so that it does not outlive this read.
    if (this.sql.hasReadConnection) {
      return this.cls.run(() => {
        this.cls.set(READ_ONLY_CONTEXT, true);
        return work();
      });
    }
    return this.inContext(() => this.serialized(work));
  }

  private inContext<T>(fn: () => Promise<T>): Promise<T> {
    return this.cls.isActive() ? fn() : this.cls.run(fn);
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.queue.then(fn, fn);
    this.queue = result.catch(() => undefined);
    return result;
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
