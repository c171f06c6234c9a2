import { Injectable } from '@nestjs/common';
import { Lead } from '../domain/lead';
import { LeadRepository } from './lead-repository';
import type { LeadView } from './lead-view';

// The types live in lead-view.ts, which LeadRepository imports too: from here they would make the
// two files import each other, which the no-circular rule refuses (docs/architecture.md).
export type { LeadApproval, LeadView } from './lead-view';

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
