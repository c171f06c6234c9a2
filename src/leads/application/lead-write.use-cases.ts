import { Injectable } from '@nestjs/common';
import { PartnerAccess } from '../../partners/application/partner-access';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { DuplicateEntryError, NotFoundError } from '../../shared/domain/domain-error';
import { Lead } from '../domain/lead';
import { LeadDetails, LeadDetailsPatch } from '../domain/lead-details';
import { LeadOptionCheck } from './lead-option-check';
import { LeadRepository } from './lead-repository';
import { LeadView, LeadViews } from './lead-views';

/** D27, shared with the bulk import so both answer a duplicate alike. */
export const emailTaken = () =>
  new DuplicateEntryError('emailAddress', 'a lead with this email address already exists for this partner');

/** docs/api.md 5. Ownership: the partner from the path, the vendor from the API key, never the body. */
@Injectable()
export class CreateLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly partners: PartnerAccess,
    private readonly leads: LeadRepository,
    private readonly optionCheck: LeadOptionCheck,
    private readonly views: LeadViews,
  ) {}

  execute(vendorId: number, partnerId: number, details: Partial<LeadDetails>): Promise<LeadView> {
    return this.uow.run(async () => {
      const lead = Lead.submit({ vendorId, partnerId, details }, this.clock.now());
      await this.optionCheck.check(vendorId, details);
      if (!(await this.partners.isConnected(vendorId, partnerId))) throw new NotFoundError('partner');
      // D27: checked here for a clear answer; ux_leads_partner_email decides when two creates race.
      if (await this.leads.emailTaken(vendorId, partnerId, lead.emailNormalized)) throw emailTaken();
      await this.leads.insert(lead);
      return this.views.one(lead);
    });
  }
}

/** Replace (PUT, docs/api.md 8) and update (PATCH, docs/api.md 9) share everything but how the lead changes. */
@Injectable()
abstract class ChangeLeadUseCase<I extends LeadDetailsPatch> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly optionCheck: LeadOptionCheck,
    private readonly views: LeadViews,
  ) {}

  protected abstract apply(lead: Lead, input: I, now: Date): boolean;

  execute(vendorId: number, leadId: number, input: I): Promise<LeadView> {
    return this.uow.run(async () => {
      await this.optionCheck.check(vendorId, input);
      const lead = await this.leads.lockForVendor(leadId, vendorId);
      if (!lead) throw new NotFoundError('lead');
      const emailBefore = lead.emailNormalized;
      // D34: a write that changes nothing is not written, and updatedAt stays.
      if (this.apply(lead, input, this.clock.now())) {
        if (
          lead.emailNormalized !== emailBefore &&
          (await this.leads.emailTaken(vendorId, lead.partnerId, lead.emailNormalized, leadId))
        ) {
          throw emailTaken();
        }
        await this.leads.update(lead);
      }
      return this.views.one(lead);
    });
  }
}

@Injectable()
export class ReplaceLeadUseCase extends ChangeLeadUseCase<Partial<LeadDetails>> {
  protected apply(lead: Lead, input: Partial<LeadDetails>, now: Date): boolean {
    return lead.replace(input, now);
  }
}

@Injectable()
export class UpdateLeadUseCase extends ChangeLeadUseCase<LeadDetailsPatch> {
  protected apply(lead: Lead, input: LeadDetailsPatch, now: Date): boolean {
    return lead.update(input, now);
  }
}
