export interface ClaimedDelivery {
  id: number;
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
 */
export abstract class DeliveryQueue {
  /** Leases up to `limit` due deliveries of live endpoints until `leaseUntil` under `leaseToken`. */
  abstract claimDue(
    now: Date,
    limit: number,
    leaseUntil: Date,
    leaseToken: string,
  ): Promise<ClaimedDelivery[]>;
  abstract markDelivered(id: number, outcome: AttemptOutcome): Promise<void>;
  abstract markRetry(id: number, outcome: AttemptOutcome, nextAttemptAt: Date, error: string): Promise<void>;
  abstract markFailed(id: number, outcome: AttemptOutcome, error: string): Promise<void>;
  abstract release(ids: number[], leaseToken: string): Promise<void>;
  abstract stats(): Promise<QueueStats>;
}
