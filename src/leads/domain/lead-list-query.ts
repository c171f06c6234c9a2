import { ApprovalStatus } from './lead-transitions';

export const LEAD_SORT_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;
export type LeadSortField = (typeof LEAD_SORT_FIELDS)[number];
export type SortDirection = 'asc' | 'desc';

/** One page of one partner's leads for one vendor (docs/api.md 6, D27, D33). Every filter combines with AND. */
export interface LeadListQuery {
  vendorId: number;
  partnerId: number;
  page: number;
  perPage: number;
  sortBy: LeadSortField;
  sortDirection: SortDirection;
  approvalStatus?: ApprovalStatus;
  /** lead-status ids; empty = no filter */
  statuses: number[];
  /** lead-source ids; empty = no filter */
  sources: number[];
  /** literal, case-insensitive prefix of the first name or the email (D33) */
  keyword?: string;
  /** created at or after this instant (UTC midnight of createdAtAfter) */
  createdFrom?: Date;
  /** created strictly before this instant (UTC midnight after createdAtBefore: whole days, D33) */
  createdUntil?: Date;
  /** false: active leads only; true: archived leads only */
  archived: boolean;
}
