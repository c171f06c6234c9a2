import { MailMessage } from './mail-message';

export interface ClaimedMail extends MailMessage {
  id: number;
  /** attempts made before this one */
  attempts: number;
}

/** What the outbox holds now, for the management port's metrics (docs/operations.md, "Metrics"). */
export interface OutboxStats {
  /** messages not sent yet, in backoff or claimed included */
  pending: number;
  /** messages given up after their last attempt, still kept as an audit record */
  failed: number;
  /** when the oldest pending message was written; null when none is pending */
  oldestPendingAt: Date | null;
}

/**
 * Port for the dispatcher: the outbox rows' lifecycle. Every method is one short transaction of its own
 * (the caller wraps it in UnitOfWork.run); sending happens outside any transaction.
 */
export abstract class OutboxStore {
  /**
   * Leases up to `limit` due messages (pending, next attempt reached, no live lease) until `leaseUntil`
   * under `leaseToken`, so no other dispatcher takes them meanwhile, and returns them.
   */
  abstract claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedMail[]>;
  abstract markSent(id: number, at: Date): Promise<void>;
  /** A failed attempt that will be retried at `nextAttemptAt`; the lease is released. */
  abstract markRetry(id: number, attempts: number, nextAttemptAt: Date, error: string): Promise<void>;
  /** The last allowed attempt failed: the message is given up. */
  abstract markFailed(id: number, attempts: number, at: Date, error: string): Promise<void>;
  /** Gives back the lease of messages that were claimed but not attempted (shutdown, lease running out). */
  abstract release(ids: number[], leaseToken: string): Promise<void>;
  /** Counts of the whole outbox, every instance's messages (one short read). */
  abstract stats(): Promise<OutboxStats>;
}
