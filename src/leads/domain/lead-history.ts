import type { LeadDetails } from './lead-details';
import type { ApprovalStatus } from './lead-transitions';

/** X12: what a history entry says happened (docs/lead-history.md). */
export const LEAD_HISTORY_ACTIONS = [
  'CREATED',
  'REPLACED',
  'UPDATED',
  'APPROVED',
  'REJECTED',
  'ARCHIVED',
] as const;
export type LeadHistoryAction = (typeof LEAD_HISTORY_ACTIONS)[number];

/**
 * One write that changed a lead, as its history shows it (X12). The lead records one for each
 * operation that changed it and none for one that changed nothing (D34), so "a retry adds no entry"
 * is decided where "a retry changes nothing" is.
 */
export interface LeadChange {
  action: LeadHistoryAction;
  /** when the change was made: the lead's createdAt for CREATED, its new updatedAt otherwise */
  at: Date;
  /** approvalStatus before the change; null for CREATED, which has no before */
  approvalStatusFrom: ApprovalStatus | null;
  /** approvalStatus after the change */
  approvalStatusTo: ApprovalStatus;
  /** the archived flag after the change */
  archived: boolean;
  /** the reject comment on REJECTED (null when the reject had none); null for every other action */
  comment: string | null;
  /** REPLACED, UPDATED: the writable fields whose value changed, in the Lead object's order; otherwise empty */
  changedFields: readonly (keyof LeadDetails)[];
}

/** A change as stored: which lead, and the display prefix of the API key that made it (null: the admin CLI). */
export interface LeadHistoryEntry extends LeadChange {
  leadId: number;
  apiKeyPrefix: string | null;
}

/**
 * The entries for a lead's recorded changes, made by the key with this prefix (null: the admin CLI).
 * Written out field by field: `{ ...change, leadId, apiKeyPrefix }` adds two properties after a
 * spread, which V8 (Node 20) does on a slow path, about 2.4 µs an entry against 20 ns for the
 * literal, on every write of a lead (docs/performance.md, "No properties added after a spread on a write's path").
 */
export function historyEntries(
  leadId: number,
  changes: readonly LeadChange[],
  apiKeyPrefix: string | null,
): LeadHistoryEntry[] {
  return changes.map((change) => ({
    action: change.action,
    at: change.at,
    approvalStatusFrom: change.approvalStatusFrom,
    approvalStatusTo: change.approvalStatusTo,
    archived: change.archived,
    comment: change.comment,
    changedFields: change.changedFields,
    leadId,
    apiKeyPrefix,
  }));
}
