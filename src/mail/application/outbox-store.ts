import { MailMessage } from './mail-message';

export interface ClaimedMail extends MailMessage {
  id: number;
  /** attempts made before this one */
  attempts: number;
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
}
