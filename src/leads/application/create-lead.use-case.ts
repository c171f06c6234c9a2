import { Injectable } from '@nestjs/common';
import { PartnerAccess } from '../../partners';
import type { Actor } from '../../shared/application/actor';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { Lead } from '../domain/lead';
import { leadEmailTaken } from '../domain/lead-email-taken';
import { LeadDetails } from '../domain/lead-details';
import { historyEntries } from '../domain/lead-history';
import { LeadHistory } from './lead-history';
import { LeadRepository } from './lead-repository';
import { LeadView, LeadViews } from './lead-views';
import { LeadEvents } from './lead-events';

/**
 * docs/api.md 5. Ownership: the partner from the path, the vendor from the API key, never the body.
 * The CREATED entry of the lead's history (X12) is written in the same transaction.
 */
@Injectable()
export class CreateLeadUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly partners: PartnerAccess,
    private readonly leads: LeadRepository,
    private readonly history: LeadHistory,
    private readonly views: LeadViews,
    private readonly events: LeadEvents,
  ) {}

  execute(actor: Actor, partnerId: number, details: Partial<LeadDetails>): Promise<LeadView> {
    const { vendorId } = actor;
    return this.uow.run(async () => {
      const lead = Lead.submit({ vendorId, partnerId, details }, this.clock.now());
      if (!(await this.partners.isConnected(vendorId, partnerId))) throw new NotFoundError('partner');
      // D27: checked here for a clear answer; ux_leads_partner_email decides when two creates race.
      if (await this.leads.emailTaken(vendorId, partnerId, lead.emailNormalized)) throw leadEmailTaken();
      await this.leads.insert(lead);
      await this.history.append(historyEntries(lead.id!, lead.changes, actor.apiKeyPrefix));
      const view = await this.views.one(lead);
      // X17: in the transaction of the change, next to its history entry
      await this.events.publish(vendorId, { type: 'lead.created', lead: view });
      return view;
    });
  }
}
