import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { StoreUnavailableError, UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { IdempotencyClaim, StoredResponse, decide, isStorable, newClaim } from '../domain/idempotency-record';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencySettings } from './idempotency.settings';

/** What the HTTP edge does with a request that carries a key. */
export type KeyOutcome =
  | { kind: 'run'; claim: IdempotencyClaim }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reused' }
  | { kind: 'in_use' };

/** Attempts when the record changes between our INSERT and our read (a release, a sweep, a takeover). */
const CLAIM_ATTEMPTS = 3;

/**
 * X2-X4: claims a key before a request runs, and stores or releases it when the response is sent.
 *
 * The claim is its own short transaction, committed before the request runs: a request on another
 * instance sees it at once (409), and a crash while the request runs leaves a claim whose lease
 * passes, after which a retry takes the key over (docs/idempotency.md).
 */
@Injectable()
export class IdempotentRequests {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly settings: IdempotencySettings,
  ) {}

  begin(vendorId: number, key: string, fingerprint: string): Promise<KeyOutcome> {
    return this.uow.run(async () => {
      for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
        const now = this.clock.now();
        const claim = newClaim(vendorId, key, fingerprint, randomUUID(), now, this.settings.leaseMs);
        if (await this.store.insert(claim)) return { kind: 'run', claim };
        const seen = await this.store.find(vendorId, key);
        if (!seen) continue; // released or swept since our INSERT: try again
        const decision = decide(seen, fingerprint, now);
        if (decision === 'take_over') {
          if (await this.store.takeOver(seen, claim, now)) return { kind: 'run', claim };
          continue; // another request took it first: look again
        }
        if (decision === 'replay') return { kind: 'replay', response: seen.response! };
        return { kind: decision };
      }
      // The record kept changing under us: someone else is using the key right now.
      return { kind: 'in_use' };
    });
  }

  /**
   * Called with the response about to be sent: stores it when X2 says so, otherwise frees the key.
   * A failure here is logged, never turned into another answer: the request's own work is done
   * (the claim then stays until its lease passes, docs/idempotency.md).
   */
  async finish(
    claim: IdempotencyClaim,
    response: StoredResponse,
    errorCode: string | undefined,
  ): Promise<void> {
    const storable = isStorable(response.status, errorCode);
    try {
      if (storable) {
        const stored = await this.uow.run(() => this.store.complete(claim, response));
        if (!stored) {
          this.logger.warn(
            `Idempotency-Key of vendor ${claim.vendorId} was taken over before its response was stored; the lease is too short`,
          );
        }
      } else {
        await this.uow.run(() => this.store.release(claim));
      }
    } catch (error) {
      // The request's own unit of work has ended already: what failed is only the key's bookkeeping,
      // so the log must not repeat a 503's "nothing was committed" about the request.
      const cause =
        error instanceof StoreUnavailableError
          ? `the database is unavailable (${error.reason})`
          : error instanceof Error
            ? error.message
            : String(error);
      this.logger.error(
        storable
          ? `could not store the answer under the Idempotency-Key of vendor ${claim.vendorId}: ${cause}; the request's own outcome stands, and the key stays in use until its lease ends`
          : `could not free the Idempotency-Key of vendor ${claim.vendorId}: ${cause}; it stays in use until its lease ends`,
      );
    }
  }
}
