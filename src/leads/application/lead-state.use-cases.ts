import { Injectable } from '@nestjs/common';
import { ContactRepository } from '../../contacts/application/contact-repository';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { Lead } from '../domain/lead';
import { contactFromLead } from './contact-from-lead';
import { LeadRepository } from './lead-repository';
import { LeadApproval, LeadView, LeadViews } from './lead-views';

/**
 * The three state operations load the lead with a row lock (SELECT ... FOR UPDATE on MySQL, the
 * serialized transaction on SQLite), so concurrent calls on one lead run one after the other and
 * each sees what the previous one committed: the first approve converts, the others find
 * APPROVED and return its contact; the first reject records its comment, the others keep it (D32).
 */
async function lockedLead(leads: LeadRepository, vendorId: number, leadId: number): Promise<Lead> {
  const lead = await leads.lockForVendor(leadId, vendorId);
  if (!lead) throw new NotFoundError('lead');
  return lead;
}

/** docs/api.md 10: approve and convert into a contact; retry-safe, one contact per lead (D32). */
@Injectable()
export class ApproveLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly contacts: ContactRepository,
    private readonly views: LeadViews,
  ) {}

  execute(vendorId: number, leadId: number): Promise<LeadApproval> {
    return this.uow.run(async () => {
      const lead = await lockedLead(this.leads, vendorId, leadId);
      const now = this.clock.now();
      if (lead.approve(now) === 'approved') await this.leads.update(lead);
      // On a retry the contact exists; insertOnce also covers an approved lead without one.
      const contact =
        (await this.contacts.findByLead(leadId)) ??
        (await this.contacts.insertOnce(contactFromLead(lead, now)));
      return { lead: await this.views.one(lead), contactId: contact.id! };
    });
  }
}

/** docs/api.md 11: reject with an optional comment; first write wins (D32). */
@Injectable()
export class RejectLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly views: LeadViews,
  ) {}

  execute(vendorId: number, leadId: number, comment: string | null): Promise<LeadView> {
    return this.uow.run(async () => {
      const lead = await lockedLead(this.leads, vendorId, leadId);
      if (lead.reject(comment, this.clock.now()) === 'rejected') await this.leads.update(lead);
      return this.views.one(lead);
    });
  }
}

/** docs/api.md 12: hide from listings; archiving an archived lead changes nothing (D34). */
@Injectable()
export class ArchiveLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly views: LeadViews,
  ) {}

  execute(vendorId: number, leadId: number): Promise<LeadView> {
    return this.uow.run(async () => {
      const lead = await lockedLead(this.leads, vendorId, leadId);
      if (lead.archive(this.clock.now())) await this.leads.update(lead);
      return this.views.one(lead);
    });
  }
}
