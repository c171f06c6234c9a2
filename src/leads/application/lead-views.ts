import { Injectable } from '@nestjs/common';
import { Lead } from '../domain/lead';
import { LeadRepository } from './lead-repository';

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

@Injectable()
export class LeadViews {
  constructor(private readonly leads: LeadRepository) {}

  async one(lead: Lead): Promise<LeadView> {
    const [view] = await this.many([lead]);
    return view!;
  }

  /** D28 for a whole page in one query, never one per lead. */
  async many(leads: Lead[]): Promise<LeadView[]> {
    if (leads.length === 0) return [];
    const duplicates = await this.leads.duplicatesAmong(
      leads[0]!.vendorId,
      leads.map((lead) => lead.id!),
    );
    return leads.map((lead) => ({ lead, isDuplicate: duplicates.has(lead.id!) }));
  }
}
