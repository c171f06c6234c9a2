import { Injectable } from '@nestjs/common';
import type { Actor } from '../../shared/application/actor';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { LeadHistory } from './lead-history';
import { LeadRepository } from './lead-repository';
import { LeadView, LeadViews } from './lead-views';
import { LeadEvents } from './lead-events';
import { lockedLead, saveChanged } from './lead-state-change';

/** docs/api.md 11: reject with an optional comment; first write wins (D32). */
@Injectable()
export class RejectLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leads: LeadRepository,
    private readonly history: LeadHistory,
    private readonly views: LeadViews,
    private readonly events: LeadEvents,
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
