import { IdempotencyStore } from '../../../src/idempotency/application/idempotency-store';
import {
  IdempotencyClaim,
  IdempotencyRecord,
  StoredResponse,
} from '../../../src/idempotency/domain/idempotency-record';
import { InMemoryUnitOfWork, Table } from './shared';

type Row = IdempotencyRecord & { id: number };

/**
 * The IdempotencyStore port in memory (src/idempotency/application/idempotency-store.ts): one record
 * per (vendor, key), and updates that name the claim token they expect, as the SQL adapter's.
 */
export class InMemoryIdempotencyStore extends IdempotencyStore {
  readonly table: Table<Row>;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<Row>());
  }

  private row(vendorId: number, key: string): Row | undefined {
    return this.table.find((r) => r.vendorId === vendorId && r.key === key);
  }

  async insert(claim: IdempotencyClaim): Promise<boolean> {
    if (this.row(claim.vendorId, claim.key)) return false; // ux_idempotency_keys_vendor_key
    this.table.insert(claim);
    return true;
  }

  async find(vendorId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const row = this.row(vendorId, key);
    if (!row) return undefined;
    const { id: _id, ...record } = row;
    return record;
  }

  async takeOver(seen: IdempotencyRecord, claim: IdempotencyClaim, now: Date): Promise<boolean> {
    const row = this.row(seen.vendorId, seen.key);
    if (!row || row.claimToken !== seen.claimToken) return false;
    const expired = row.expiresAt <= now;
    const leaseOver = row.state === 'RUNNING' && row.leaseUntil !== null && row.leaseUntil <= now;
    if (!expired && !leaseOver) return false;
    return this.table.update(row.id, { ...claim, response: null });
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    const row = this.row(claim.vendorId, claim.key);
    if (!row || row.claimToken !== claim.claimToken || row.state !== 'RUNNING') return false;
    return this.table.update(row.id, { state: 'DONE', leaseUntil: null, response });
  }

  async release(claim: IdempotencyClaim): Promise<boolean> {
    const row = this.row(claim.vendorId, claim.key);
    if (!row || row.claimToken !== claim.claimToken || row.state !== 'RUNNING') return false;
    return this.table.delete(row.id);
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    const expired = this.table
      .all((r) => r.expiresAt <= now)
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .slice(0, Math.max(1, Math.trunc(limit)));
    for (const row of expired) this.table.delete(row.id);
    return expired.length;
  }
}
