import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';

/**
 * The idempotency module's one hand-written statement: the sweep's bounded DELETE, which TypeORM's
 * QueryBuilder cannot write (a DELETE with ORDER BY and LIMIT), and whose text differs by engine.
 */
@Injectable()
export class IdempotencyQueries {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** Deletes up to `limit` records expired at `now`, the oldest first; returns how many. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const runner = this.txHost.tx.queryRunner;
    if (!runner) throw new Error('deleteExpired must be called inside UnitOfWork.run');
    // The batch size is an integer of our own settings, written into the statement: a LIMIT bound
    // as a parameter is refused by some MySQL versions' prepared statements. MySQL refuses a LIMIT
    // in an IN subquery, and SQLite has no ORDER BY or LIMIT on a DELETE unless built with them.
    const batch = Math.max(1, Math.trunc(limit));
    const sql = this.dialect.pick({
      mysql: `DELETE FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ${batch}`,
      sqlite: `DELETE FROM idempotency_keys WHERE id IN
                 (SELECT id FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ${batch})`,
    });
    const result = await runner.query(sql, [this.dialect.dateTime(now)], true);
    return result.affected ?? 0;
  }
}
