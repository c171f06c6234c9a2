import { Injectable } from '@nestjs/common';
import { ContactRepository } from '../../contacts';
import type { Actor } from '../../shared/application/actor';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { contactFromLead } from './contact-from-lead';
import { LeadHistory } from './lead-history';
import { LeadRepository } from './lead-repository';
import { LeadApproval, LeadViews } from './lead-views';
import { LeadEvents } from './lead-events';
import { lockedLead, saveChanged } from './lead-state-change';

/** docs/api.md 10: approve and convert into a contact; retry-safe, one contact per lead (D32). */
@Injectable()
export class ApproveLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly history: LeadHistory,
    private readonly contacts: ContactRepository,
    private readonly views: LeadViews,
    private readonly events: LeadEvents,
  ) {}

  execute(actor: Actor, leadId: number): Promise<LeadApproval> {
    return this.uow.run(async () => {
      const lead = await lockedLead(this.leads, actor.vendorId, leadId);
      const now = this.clock.now();
      lead.approve(now);
      const changed = lead.changes.length > 0;
      await saveChanged(this.leads, this.history, lead, actor);
      // On a retry the contact exists; insertOnce also covers an approved lead without one.
      const contact =
        (await this.contacts.findByLead(leadId)) ??
        (await this.contacts.insertOnce(contactFromLead(lead, now)));
      const approval = { lead: await this.views.one(lead), contactId: contact.id! };
      // X17: an approve of an approved lead (D32) changed nothing and sends nothing
      if (changed) await this.events.publish(actor.vendorId, { type: 'lead.approved', ...approval });
      return approval;
    });
  }
}
