// The leads module's use cases, built over in-memory adapters (the one place their paths are named).
import { contactFromLead } from '../../../src/leads/application/contact-from-lead';
import { ApproveLeadUseCase } from '../../../src/leads/application/approve-lead.use-case';
import { ArchiveLeadUseCase } from '../../../src/leads/application/archive-lead.use-case';
import { CreateLeadUseCase } from '../../../src/leads/application/create-lead.use-case';
import { GetLeadHistoryUseCase } from '../../../src/leads/application/get-lead-history.use-case';
import { GetLeadUseCase } from '../../../src/leads/application/get-lead.use-case';
import { LeadOptionCheck } from '../../../src/leads/application/lead-option-check';
import { LeadViews } from '../../../src/leads/application/lead-views';
import { ListLeadsUseCase } from '../../../src/leads/application/list-leads.use-case';
import { RejectLeadUseCase } from '../../../src/leads/application/reject-lead.use-case';
import { ReplaceLeadUseCase } from '../../../src/leads/application/replace-lead.use-case';
import { UpdateLeadUseCase } from '../../../src/leads/application/update-lead.use-case';
import { LeadOptionInputCheck } from '../../../src/leads/http/lead-option.input-check';
import { Lead, LeadSnapshot } from '../../../src/leads/domain/lead';
import { LeadListQuery } from '../../../src/leads/domain/lead-list-query';
import type { Actor } from '../../../src/shared/application/actor';
import { inMemoryAdapters } from '../../support/in-memory';
import { LeadMother } from '../../support/lead-mother';
import { seeding } from '../partners/setup';

export { contactFromLead, LeadMother };

export function leadsSetup() {
  const a = inMemoryAdapters();
  const views = new LeadViews(a.leads);
  const optionCheck = new LeadOptionCheck(a.uow, a.leadOptions);
  const write = [a.uow, a.clock, a.leads, a.leadHistory, views, a.leadEvents] as const;
  const seed = seeding(a);
  return {
    ...a,
    views,
    optionCheck,
    /** D15 as a request meets it: in the validation pass at the edge, before any use case runs. */
    optionInputCheck: new LeadOptionInputCheck(optionCheck),
    create: new CreateLeadUseCase(
      a.uow,
      a.clock,
      a.partnerAccess,
      a.leads,
      a.leadHistory,
      views,
      a.leadEvents,
    ),
    replace: new ReplaceLeadUseCase(...write),
    update: new UpdateLeadUseCase(...write),
    approve: new ApproveLeadUseCase(a.uow, a.clock, a.leads, a.leadHistory, a.contacts, views, a.leadEvents),
    reject: new RejectLeadUseCase(a.uow, a.clock, a.leads, a.leadHistory, views, a.leadEvents),
    archive: new ArchiveLeadUseCase(a.uow, a.clock, a.leads, a.leadHistory, views, a.leadEvents),
    get: new GetLeadUseCase(a.uow, a.leads),
    history: new GetLeadHistoryUseCase(a.uow, a.leads, a.leadHistory),
    list: new ListLeadsUseCase(a.uow, a.partnerAccess, a.leads),
    seed: {
      ...seed,
      /** A vendor with an API key prefix, a partner connected to it, and the actor that calls. */
      async owner(name = 'Acme'): Promise<{ vendorId: number; partnerId: number; actor: Actor }> {
        const vendorId = seed.vendor(name);
        const { partner } = await seed.partner([vendorId], []);
        return {
          vendorId,
          partnerId: partner.id,
          actor: { vendorId, apiKeyPrefix: `prm_${name.slice(0, 6)}` },
        };
      },
      /** A stored lead of that vendor and partner, in the state given (LeadMother). */
      lead(vendorId: number, partnerId: number, overrides: Partial<LeadSnapshot> = {}): Lead {
        return a.leads.add(
          LeadMother.pending({ source: null, status: null, vendorId, partnerId, ...overrides }),
        );
      },
    },
  };
}

export type LeadsSetup = ReturnType<typeof leadsSetup>;

export function listQuery(
  vendorId: number,
  partnerId: number,
  overrides: Partial<LeadListQuery> = {},
): LeadListQuery {
  return {
    vendorId,
    partnerId,
    page: 0,
    perPage: 20,
    sortBy: 'createdAt',
    sortDirection: 'desc',
    statuses: [],
    sources: [],
    archived: false,
    ...overrides,
  };
}

/** What a failed call must leave behind: nothing (X12, X17, D27). */
export function written(t: LeadsSetup) {
  return {
    leads: t.leads.table.all(),
    history: t.leadHistory.all(),
    contacts: t.contacts.table.all(),
    events: t.webhookTables.events.all(),
  };
}
