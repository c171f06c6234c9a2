import { SqlDatabase } from '../../shared/infrastructure/database/sql-database';
import { Lead } from '../domain/lead';

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
 * caller's transaction (migration 1763700000420). Every writer of leads (the repository, the bulk
 * import) goes through here.
 */
export class LeadCounts {
  private readonly upsert: string;

  constructor(private readonly db: SqlDatabase) {
    const insert = `INSERT INTO lead_counts (vendor_id, partner_id, archived, approval_status, slot, total)
      VALUES (?, ?, ?, ?, ?, ?)`;
    this.upsert =
      db.engine === 'mysql'
        ? `${insert} ON DUPLICATE KEY UPDATE total = total + VALUES(total)`
        : `${insert} ON CONFLICT (vendor_id, partner_id, archived, approval_status, slot)
            DO UPDATE SET total = total + excluded.total`;
  }

  /** Adds `delta` to one slot of a bucket of one (vendor, partner). */
  async add(
    vendorId: number,
    partnerId: number,
    bucket: LeadBucket,
    slot: number,
    delta: number,
  ): Promise<void> {
    await this.db.run(this.upsert, [
      vendorId,
      partnerId,
      bucket.archived,
      bucket.approvalStatus,
      slot,
      delta,
    ]);
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

  /** How many leads of the partner are in the bucket (any approvalStatus when it is undefined). */
  async total(
    vendorId: number,
    partnerId: number,
    archived: boolean,
    approvalStatus?: string,
  ): Promise<number> {
    const row = await this.db.one<{ total: number | string | null }>(
      `SELECT SUM(total) AS total FROM lead_counts
        WHERE vendor_id = ? AND partner_id = ? AND archived = ?${approvalStatus ? ' AND approval_status = ?' : ''}`,
      approvalStatus ? [vendorId, partnerId, archived, approvalStatus] : [vendorId, partnerId, archived],
    );
    return Number(row?.total ?? 0);
  }
}
