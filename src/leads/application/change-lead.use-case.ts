import { Injectable } from '@nestjs/common';
import type { Actor } from '../../shared/application/actor';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { Lead } from '../domain/lead';
import { LeadDetailsPatch } from '../domain/lead-details';
import { historyEntries } from '../domain/lead-history';
import { LeadHistory } from './lead-history';
import { LeadRepository } from './lead-repository';
import { LeadView, LeadViews } from './lead-views';
import { LeadEvents } from './lead-events';
import { leadEmailTaken } from '../domain/lead-email-taken';

/** Replace (PUT, docs/api.md 8) and update (PATCH, docs/api.md 9) share everything but how the lead changes. */
@Injectable()
export abstract class ChangeLeadUseCase<I extends LeadDetailsPatch> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly history: LeadHistory,
    private readonly views: LeadViews,
    private readonly events: LeadEvents,
  ) {}

  protected abstract apply(lead: Lead, input: I, now: Date): boolean;

  execute(actor: Actor, leadId: number, input: I): Promise<LeadView> {
    const { vendorId } = actor;
    return this.uow.run(async () => {
      const lead = await this.leads.lockForVendor(leadId, vendorId);
      if (!lead) throw new NotFoundError('lead');
      const emailBefore = lead.emailNormalized;
      // D34: a write that changes nothing is not written, updatedAt stays, and no history entry is added (X12).
      if (this.apply(lead, input, this.clock.now())) {
        // X12: the entry is written as soon as the change is decided; the D27 check and the unique
        // index below can still refuse the change, and then roll the entry back with it.
        await this.history.append(historyEntries(leadId, lead.changes, actor.apiKeyPrefix));
        if (
          lead.emailNormalized !== emailBefore &&
          (await this.leads.emailTaken(vendorId, lead.partnerId, lead.emailNormalized, leadId))
        ) {
          throw leadEmailTaken();
        }
        await this.leads.update(lead);
        const view = await this.views.one(lead);
        // X17: only a write that changed something; the fields are those of its history entry (X12)
        const changedFields = lead.changes.flatMap((change) => change.changedFields);
        await this.events.publish(vendorId, { type: 'lead.updated', lead: view, changedFields });
        return view;
      }
      return this.views.one(lead);
    });
  }
}
