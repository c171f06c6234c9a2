export interface ClaimedDelivery {
  id: number;
  /** the lease the row was claimed under: every later write is made only while the row still holds it */
  leaseToken: string;
  /** attempts made before this one */
  attempts: number;
  url: string;
  secret: string;
  /** the event's `evt_...` id: `webhook-id`, the same on every attempt and replay (X18) */
  eventId: string;
  /** the JSON body, exactly as signed and sent */
  payload: string;
}

export interface AttemptOutcome {
  attempts: number;
  /** the receiver's HTTP status; null when none came (refused, timed out, unreachable) */
  responseStatus: number | null;
  at: Date;
}

export interface QueueStats {
  pending: number;
  oldestPendingAt: Date | null;
}

/**
 * Port for the delivery worker (X18): the lifecycle of `webhook_deliveries` rows, as the mail
 * outbox's. Each method is one short transaction of its own (the caller wraps it in UnitOfWork.run).
 *
 * An attempt's outcome is recorded only while the row is still PENDING under the lease it was claimed
 * with (the `mark*` methods answer whether it was): deleting the endpoint (X16) makes its pending rows
 * FAILED, and an attempt in flight at that moment must not bring one back to life or overwrite why it
 * ended (docs/webhooks.md, "Endpoints").
 */
export abstract class DeliveryQueue {
  /**
   * Leases up to `limit` due PENDING deliveries until `leaseUntil` under `leaseToken`. Deleted
   * endpoints are not filtered here (their pending rows are failed by the DELETE); `confirm` checks
   * again just before each POST.
   */
  abstract claimDue(
    now: Date,
    limit: number,
    leaseUntil: Date,
    leaseToken: string,
  ): Promise<ClaimedDelivery[]>;
  /**
   * Just before an attempt: true while the row is still PENDING under this lease and its endpoint is
   * not deleted. A row whose endpoint was deleted (a lead change that committed alongside the DELETE
   * can queue one after the DELETE failed the others) is made FAILED "endpoint deleted" here, and
   * false is answered: nothing is sent.
   */
  abstract confirm(delivery: ClaimedDelivery): Promise<boolean>;
  abstract markDelivered(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<boolean>;
  abstract markRetry(
    delivery: ClaimedDelivery,
    outcome: AttemptOutcome,
    nextAttemptAt: Date,
    error: string,
  ): Promise<boolean>;
  abstract markFailed(delivery: ClaimedDelivery, outcome: AttemptOutcome, error: string): Promise<boolean>;
  abstract release(ids: number[], leaseToken: string): Promise<void>;
  abstract stats(): Promise<QueueStats>;
}
