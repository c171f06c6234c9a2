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
}
