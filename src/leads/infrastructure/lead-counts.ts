import { Lead } from '../domain/lead';
import type { LeadQueries } from './leads.queries';

/** The lead_counts bucket a lead is counted in: the listing it appears in (docs/performance.md). */
export interface LeadBucket {
  archived: boolean;
  approvalStatus: string;
}

/** A bucket is split into this many rows (slot = lead id modulo it), summed when read. */
export const COUNT_SLOTS = 16;

export function bucketOf(lead: Lead): LeadBucket {
  return { archived: lead.archived, approvalStatus: lead.approvalStatus };
}

/**
 * The maintained counts of a partner's leads per (archived, approvalStatus), written in the
 * caller's transaction (migration 1763700000420) by LeadQueries' upsert. Every writer of leads (the
 * repository, the bulk import) goes through here; the listing reads them (LeadQueries).
 */
export class LeadCounts {
  constructor(private readonly queries: LeadQueries) {}

  /** Adds `delta` to one slot of a bucket of one (vendor, partner). */
  add(vendorId: number, partnerId: number, bucket: LeadBucket, slot: number, delta: number): Promise<void> {
    return this.queries.addToCount(vendorId, partnerId, bucket, slot, delta);
  }

  /** A new lead (it has its id). */
  added(lead: Lead): Promise<void> {
    return this.add(lead.vendorId, lead.partnerId, bucketOf(lead), lead.id! % COUNT_SLOTS, 1);
  }

  /**
   * A lead that left one bucket for another. Always in the same order (the buckets' key), so two
   * moves never wait for each other's counter rows in a cycle.
   */
  async moved(lead: Lead, from: LeadBucket, to: LeadBucket): Promise<void> {
    if (from.archived === to.archived && from.approvalStatus === to.approvalStatus) return;
    const moves: [LeadBucket, number][] = [
      [from, -1],
      [to, 1],
    ];
    moves.sort(
      ([a], [b]) =>
        Number(a.archived) - Number(b.archived) || a.approvalStatus.localeCompare(b.approvalStatus),
    );
    for (const [bucket, delta] of moves) {
      await this.add(lead.vendorId, lead.partnerId, bucket, lead.id! % COUNT_SLOTS, delta);
    }
  }
}
