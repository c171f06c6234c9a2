import type { EntityManager } from 'typeorm';
import { DatabaseDialect } from './database-dialect';

/** A queue table with the lease columns: `status`, `next_attempt_at`, `locked_until`, `lease_token`. */
export type LeasedQueueTable = 'mail_outbox' | 'webhook_deliveries';

/**
 * Leases up to `limit` due rows of a queue table to `leaseToken` until `leaseUntil`, in the caller's
 * transaction: rows PENDING, due by `now`, and not leased, or leased until a moment already past
 * (a worker that died leaves its lease to expire). The caller then reads the rows holding its
 * token. The mail outbox (D35) and the webhook deliveries (X18) are both claimed this way.
 *
 * - MySQL: several instances claim at once; SKIP LOCKED lets each take rows the others are not
 *   taking, and the lease written here keeps them apart once this short transaction commits.
 * - SQLite: one statement, so it is atomic even when another process shares the file.
 */
export async function claimLeasedRows(
  tx: EntityManager,
  dialect: DatabaseDialect,
  table: LeasedQueueTable,
  claim: { now: Date; limit: number; leaseUntil: Date; leaseToken: string },
): Promise<void> {
  const at = dialect.dateTime(claim.now);
  const until = dialect.dateTime(claim.leaseUntil);
  const due = `status = 'PENDING' AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until <= ?)`;
  if (dialect.skipLocked) {
    const picked: { id: number | string }[] = await tx.query(
      `SELECT id FROM ${table} WHERE ${due} ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED`,
      [at, at, claim.limit],
    );
    if (picked.length === 0) return;
    await tx.query(
      `UPDATE ${table} SET locked_until = ?, lease_token = ? WHERE id IN (${picked.map(() => '?').join(', ')})`,
      [until, claim.leaseToken, ...picked.map((row) => Number(row.id))],
    );
    return;
  }
  await tx.query(
    `UPDATE ${table} SET locked_until = ?, lease_token = ?
      WHERE id IN (SELECT id FROM ${table} WHERE ${due} ORDER BY next_attempt_at, id LIMIT ?)`,
    [until, claim.leaseToken, at, at, claim.limit],
  );
}
