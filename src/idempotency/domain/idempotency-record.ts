/** X3, X5: how long a key and its stored response count, from the first request that used it. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;

/** A response kept with its key (X2): status and body exactly as first sent. */
export interface StoredResponse {
  status: number;
  body: string;
}

/**
 * One key of one vendor (X1, X5). RUNNING: a request holds it until `leaseUntil`; past that the
 * holder is presumed dead (a crash, a lost instance) and another request may take the key over.
 * DONE: the response is stored and is replayed until `expiresAt`.
 */
export interface IdempotencyRecord {
  vendorId: number;
  key: string;
  /** requestFingerprint() of the request that holds or held the key */
  fingerprint: string;
  /** changes with every claim, so that only the holder can finish or release it */
  claimToken: string;
  state: 'RUNNING' | 'DONE';
  leaseUntil: Date | null;
  createdAt: Date;
  expiresAt: Date;
  response: StoredResponse | null;
}

/** A running claim of a key by the request at hand. */
export type IdempotencyClaim = IdempotencyRecord & { state: 'RUNNING'; leaseUntil: Date };

export function newClaim(
  vendorId: number,
  key: string,
  fingerprint: string,
  claimToken: string,
  now: Date,
  leaseMs: number,
): IdempotencyClaim {
  return {
    vendorId,
    key,
    fingerprint,
    claimToken,
    state: 'RUNNING',
    leaseUntil: new Date(now.getTime() + leaseMs),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RETENTION_MS),
    response: null,
  };
}

/**
 * What a request does with a key that is already recorded:
 * - `take_over`: the record no longer counts (older than 24 hours, X3; or a holder whose lease
 *   passed, which stored nothing): the request claims the key and runs, as if it were new;
 * - `in_use`: another request holds the key right now (X4: 409), whatever its body: what it will
 *   store is not known yet;
 * - `replay`: the same request was answered: its stored response again (X3);
 * - `reused`: another request was answered with this key (X4: 422).
 */
export type KeyDecision = 'take_over' | 'in_use' | 'replay' | 'reused';

export function decide(record: IdempotencyRecord, fingerprint: string, now: Date): KeyDecision {
  const t = now.getTime();
  if (record.expiresAt.getTime() <= t) return 'take_over';
  if (record.state === 'RUNNING') {
    return record.leaseUntil !== null && record.leaseUntil.getTime() > t ? 'in_use' : 'take_over';
  }
  return record.fingerprint === fingerprint ? 'replay' : 'reused';
}

/**
 * X2: a response is stored when the request reached the business rules: any 2xx, 400
 * DUPLICATE_ENTRY, 404 and 409. Refusals before them (400 INVALID_REQUEST and VALIDATION_FAILED,
 * 401, 408, 413) and 5xx are not: the client corrects the request, or waits, and sends it again
 * with the same key. `errorCode` is the `message` of an error body.
 */
export function isStorable(status: number, errorCode: string | undefined): boolean {
  if (status >= 200 && status < 300) return true;
  if (status === 404 || status === 409) return true;
  return status === 400 && errorCode === 'DUPLICATE_ENTRY';
}
