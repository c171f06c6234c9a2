/**
 * Port: runs one use case in one database transaction. Repositories called inside `run` take part in
 * that transaction; a nested `run` joins the outer one. A thrown error rolls everything back.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;

  /**
   * For a use case that only reads. It runs without a transaction: on MySQL transactions are READ
   * COMMITTED, where every statement sees what is committed when it runs, so a transaction would
   * add round trips and no consistency. On SQLite, whose one connection is shared, it still waits
   * for the running transaction, so it never sees uncommitted work.
   */
  abstract read<T>(work: () => Promise<T>): Promise<T>;

  /**
   * A number that changes once anything is committed to the store, by this process or any other:
   * what a read found stays true while the number it was read under is still the answer. Null when
   * the store cannot tell without a query of its own (MySQL, an in-memory SQLite): then nothing read
   * may be kept. Costs no round trip (docs/performance.md, rule 15).
   */
  commitVersion(): number | null {
    return null;
  }

  /**
   * Reads made from now on see every change committed before this call, by this process or any
   * other. Called as each request arrives: a store whose reads share a snapshot within one turn of
   * the event loop (SQLite, docs/performance.md rule 19) starts a new one; others need nothing.
   */
  freshReads(): void {}
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
