import { Injectable } from '@nestjs/common';
import { ContactRepository } from '../../contacts/application/contact-repository';
import type { Actor } from '../../shared/application/actor';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { Lead } from '../domain/lead';
import { historyEntries } from '../domain/lead-history';
import { contactFromLead } from './contact-from-lead';
import { LeadHistory } from './lead-history';
import { LeadRepository } from './lead-repository';
import { LeadApproval, LeadView, LeadViews } from './lead-views';
import { WebhookEvents } from '../../webhooks/application/ports';

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

/**
 * Writes the lead and its history entry (X12) when the operation changed it; a retry that changed
 * nothing writes neither (D34), so it adds no entry.
 */
async function saveChanged(
  leads: LeadRepository,
  history: LeadHistory,
  lead: Lead,
  actor: Actor,
): Promise<void> {
  if (lead.changes.length === 0) return;
  await leads.update(lead);
  await history.append(historyEntries(lead.id!, lead.changes, actor.apiKeyPrefix));
}

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
    private readonly events: WebhookEvents,
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

/** docs/api.md 11: reject with an optional comment; first write wins (D32). */
@Injectable()
export class RejectLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly history: LeadHistory,
    private readonly views: LeadViews,
    private readonly events: WebhookEvents,
  ) {}

  execute(actor: Actor, leadId: number, comment: string | null): Promise<LeadView> {
    return this.uow.run(async () => {
      const lead = await lockedLead(this.leads, actor.vendorId, leadId);
      lead.reject(comment, this.clock.now());
      const changed = lead.changes.length > 0;
      await saveChanged(this.leads, this.history, lead, actor);
      const view = await this.views.one(lead);
      // X17: only when the operation changed the lead (D32, D34)
      if (changed) await this.events.publish(actor.vendorId, { type: 'lead.rejected', lead: view });
      return view;
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
    private readonly history: LeadHistory,
    private readonly views: LeadViews,
    private readonly events: WebhookEvents,
  ) {}

  execute(actor: Actor, leadId: number): Promise<LeadView> {
    return this.uow.run(async () => {
      const lead = await lockedLead(this.leads, actor.vendorId, leadId);
      lead.archive(this.clock.now());
      const changed = lead.changes.length > 0;
      await saveChanged(this.leads, this.history, lead, actor);
      const view = await this.views.one(lead);
      // X17: only when the operation changed the lead (D32, D34)
      if (changed) await this.events.publish(actor.vendorId, { type: 'lead.archived', lead: view });
      return view;
    });
  }
}
