import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import type { LeadHistoryEntry } from '../domain/lead-history';
import { LeadHistory } from './lead-history';
import { LeadRepository } from './lead-repository';

/** X12: the lead's history, oldest first; 404 exactly as reading the lead (D27). */
@Injectable()
export class GetLeadHistoryUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly leads: LeadRepository,
    private readonly history: LeadHistory,
  ) {}

  execute(vendorId: number, leadId: number): Promise<LeadHistoryEntry[]> {
    return this.uow.read(async () => {
      if (!(await this.leads.findForVendor(leadId, vendorId))) throw new NotFoundError('lead');
      return this.history.listForLead(leadId);
    });
  }
}
