/** What the errors of both drivers mean to the service: the codes are the engines' own. */

/** MySQL ER_DUP_ENTRY or SQLite SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return (
    code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** The driver's error code (`ER_DUP_ENTRY`, `SQLITE_BUSY`, `ECONNREFUSED`...), through TypeORM's wrapper. */
export function codeOf(error: unknown): string | undefined {
  const e = (error as { driverError?: { code?: string } } | undefined)?.driverError ?? error;
  return (e as { code?: string } | undefined)?.code;
}

/** MySQL/MariaDB ER_LOCK_DEADLOCK: InnoDB rolled the transaction back; running it again is safe. */
export function isDeadlock(error: unknown): boolean {
  return codeOf(error) === 'ER_LOCK_DEADLOCK';
}

/**
 * SQLite could not give a transaction the write lock: another connection holds it, or committed
 * since the transaction's first read. The transaction has written nothing, so running it again is
 * safe (the UnitOfWork does, until its bound).
 */
export function isWriteLockBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * A lock held by another session for longer than the session's lock wait timeout (a row lock, or a
 * table lock such as LOCK TABLES), or SQLite's database lock held by another process. Waiting
 * again would only double the wait: the request is answered "busy" instead.
 */
export function isLockWaitTimeout(error: unknown): boolean {
  const code = codeOf(error);
  return (
    code === 'ER_LOCK_WAIT_TIMEOUT' ||
    code === 'SQLITE_BUSY' ||
    code === 'SQLITE_BUSY_SNAPSHOT' ||
    code === 'SQLITE_LOCKED'
  );
}

/** A statement that did not answer within its timeout (mysql2 destroys that connection). */
export function isQueryTimeout(error: unknown): boolean {
  return codeOf(error) === 'PROTOCOL_SEQUENCE_TIMEOUT';
}
