import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import { LeadRepository } from './lead-repository';
import { LeadView } from './lead-views';

/** docs/api.md 7: another vendor's lead is 404, exactly like a missing one (D27). */
@Injectable()
export class GetLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly leads: LeadRepository,
  ) {}

  execute(vendorId: number, leadId: number): Promise<LeadView> {
    return this.uow.read(async () => {
      const view = await this.leads.findViewForVendor(leadId, vendorId);
      if (!view) throw new NotFoundError('lead');
      return view;
    });
  }
}
