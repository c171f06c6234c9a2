import { IdempotencyClaim, IdempotencyRecord, StoredResponse } from '../domain/idempotency-record';

/**
 * Port: where keys and their responses live (X5). Every method is one statement, called inside
 * `UnitOfWork.run`; what makes it safe across instances is the database: one unique index on
 * (vendor, key), and updates that name the claim token they expect.
 */
export abstract class IdempotencyStore {
  /** Records a running claim; false when the vendor has a record with this key already. */
  abstract insert(claim: IdempotencyClaim): Promise<boolean>;

  abstract find(vendorId: number, key: string): Promise<IdempotencyRecord | undefined>;

  /**
   * Replaces `seen` by `claim` when the record is still the one seen (same claim token) and may be
   * taken over at `now`: older than 24 hours, or running with its lease passed. False when another
   * request changed or took it first.
   */
  abstract takeOver(seen: IdempotencyRecord, claim: IdempotencyClaim, now: Date): Promise<boolean>;

  /** Stores the response of a claim still held; false when the claim was lost meanwhile. */
  abstract complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean>;

  /** Deletes a claim still held (nothing is stored: the key is free again). */
  abstract release(claim: IdempotencyClaim): Promise<boolean>;

  /** Deletes up to `limit` records that expired at `now`; returns how many. */
  abstract deleteExpired(now: Date, limit: number): Promise<number>;
}
