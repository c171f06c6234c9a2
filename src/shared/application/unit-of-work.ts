/**
 * Port: runs one use case in one database transaction. Repositories called inside `run` take part in
 * that transaction; a nested `run` joins the outer one. A thrown error rolls everything back.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;

  /**
   * For a read that needs no transaction (a single lookup). On engines without row-level concurrency
   * (SQLite) it still waits for the running transaction, so it never sees uncommitted work.
   */
  abstract read<T>(work: () => Promise<T>): Promise<T>;
}
