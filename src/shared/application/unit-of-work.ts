/**
 * Port: runs one use case in one database transaction. Repositories called inside `run` take part in
 * that transaction; a nested `run` joins the outer one. A thrown error rolls everything back.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;

  /**
   * For a use case that only reads. It runs without a transaction: on MySQL transactions are READ
   * COMMITTED, where every statement sees what is committed when it runs, so a transaction would
   * add round trips and no consistency. On SQLite, whose one connection is shared, it waits for the
   * running transaction, so it never sees uncommitted work.
   */
  abstract read<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * The database did not answer within the bound, or is busy (a lock held elsewhere, no free
 * connection, SQLite locked by another process): nothing of the work was committed, and the same
 * request may be sent again later. The HTTP edge answers 503 with Retry-After (docs/operations.md).
 */
export class StoreUnavailableError extends Error {
  constructor(
    readonly reason: 'timeout' | 'lock_wait' | 'busy',
    readonly retryAfterSeconds = 1,
  ) {
    super(`the database is unavailable (${reason}); nothing was committed`);
    this.name = 'StoreUnavailableError';
  }
}
