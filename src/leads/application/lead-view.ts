import type { Lead } from '../domain/lead';

/** A lead as the API shows it: the aggregate plus isDuplicate, computed when read (D28). */
export interface LeadView {
  lead: Lead;
  isDuplicate: boolean;
}

/** LeadApprovalResult (docs/api.md 10). */
export interface LeadApproval {
  lead: LeadView;
  contactId: number;
}
