import { LeadHistory } from '../../../src/leads/application/lead-history';
import { LeadBatchWriter } from '../../../src/leads/application/lead-batch-writer';
import { LeadRepository } from '../../../src/leads/application/lead-repository';
import type { LeadView } from '../../../src/leads/application/lead-views';
import { Lead, LeadSnapshot } from '../../../src/leads/domain/lead';
import { LeadHistoryEntry } from '../../../src/leads/domain/lead-history';
import { LeadListQuery } from '../../../src/leads/domain/lead-list-query';
import { DuplicateEntryError } from '../../../src/shared/domain/domain-error';
import { foldCase } from '../../../src/shared/domain/text';
import { InMemoryContactRepository } from './contacts';
import { InMemoryUnitOfWork, Table, Transactional, pageOf } from './shared';

/** The leads module's ports in memory (src/leads/application/). */

type LeadRow = LeadSnapshot & { id: number };

/** What the SQL adapter answers when ux_leads_partner_email refuses a write (D27). */
const emailTaken = () =>
  new DuplicateEntryError('emailAddress', 'a lead with this email address already exists for this partner');

const SORT_VALUES = {
  id: (row: LeadRow) => row.id,
  createdAt: (row: LeadRow) => row.createdAt.getTime(),
  updatedAt: (row: LeadRow) => row.updatedAt.getTime(),
} as const;

export class InMemoryLeadRepository extends LeadRepository {
  readonly table: Table<LeadRow>;
  /** Leads inserted or locked here: the only ones update takes, as in the SQL adapter. */
  private readonly writable = new WeakSet<Lead>();

  /** `contacts`: D28 counts a contact of the vendor with the same email as a duplicate. */
  constructor(
    uow: InMemoryUnitOfWork,
    private readonly contacts: InMemoryContactRepository,
  ) {
    super();
    this.table = uow.track(new Table<LeadRow>());
  }

  /** UNIQUE(vendor_id, partner_id, email_normalized), archived leads included (D27). */
  private taken(vendorId: number, partnerId: number, email: string, exceptId?: number): boolean {
    return (
      this.table.find(
        (row) =>
          row.vendorId === vendorId &&
          row.partnerId === partnerId &&
          foldCase(row.emailAddress) === email &&
          row.id !== exceptId,
      ) !== undefined
    );
  }

  async insert(lead: Lead): Promise<void> {
    if (this.taken(lead.vendorId, lead.partnerId, lead.emailNormalized)) throw emailTaken();
    const { id: _none, ...values } = lead.snapshot();
    lead.identify(this.table.insert(values).id);
    this.writable.add(lead);
  }

  async update(lead: Lead): Promise<void> {
    if (lead.id === undefined || !this.table.get(lead.id)) throw new Error(`lead ${lead.id} is not stored`);
    if (!this.writable.has(lead))
      throw new Error(`lead ${lead.id} was not inserted or locked by this repository`);
    if (this.taken(lead.vendorId, lead.partnerId, lead.emailNormalized, lead.id)) throw emailTaken();
    const { id: _id, ...values } = lead.snapshot();
    this.table.update(lead.id, values);
  }

  async findForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const row = this.table.get(leadId);
    return row && row.vendorId === vendorId ? Lead.restore(row) : null;
  }

  async findViewForVendor(leadId: number, vendorId: number): Promise<LeadView | null> {
    const lead = await this.findForVendor(leadId, vendorId);
    if (!lead) return null;
    return { lead, isDuplicate: (await this.duplicatesAmong(vendorId, [leadId])).has(leadId) };
  }

  /** Transactions run one at a time (InMemoryUnitOfWork), so the lock of D32 holds by itself. */
  async lockForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const lead = await this.findForVendor(leadId, vendorId);
    if (lead) this.writable.add(lead);
    return lead;
  }

  async emailTaken(
    vendorId: number,
    partnerId: number,
    emailNormalized: string,
    exceptLeadId?: number,
  ): Promise<boolean> {
    return this.taken(vendorId, partnerId, emailNormalized, exceptLeadId);
  }

  async listForPartner(query: LeadListQuery): Promise<{ leads: LeadView[]; totalItems: number }> {
    const prefix = query.keyword ? foldCase(query.keyword) : undefined;
    const matching = this.table.all(
      (row) =>
        row.vendorId === query.vendorId &&
        row.partnerId === query.partnerId &&
        row.archived === query.archived &&
        (!query.approvalStatus || row.approvalStatus === query.approvalStatus) &&
        (query.statuses.length === 0 || (row.status !== null && query.statuses.includes(row.status))) &&
        (query.sources.length === 0 || (row.source !== null && query.sources.includes(row.source))) &&
        (prefix === undefined ||
          foldCase(row.firstName).startsWith(prefix) ||
          foldCase(row.emailAddress).startsWith(prefix)) &&
        (!query.createdFrom || row.createdAt >= query.createdFrom) &&
        (!query.createdUntil || row.createdAt < query.createdUntil),
    );
    const sign = query.sortDirection === 'asc' ? 1 : -1;
    const value = SORT_VALUES[query.sortBy];
    // D33: ties broken by id in the same direction
    matching.sort((a, b) => sign * (value(a) - value(b) || a.id - b.id));
    const page = pageOf(matching, query.page, query.perPage).map((row) => Lead.restore(row));
    const duplicates =
      page.length === 0
        ? new Set<number>()
        : await this.duplicatesAmong(
            query.vendorId,
            page.map((l) => l.id!),
          );
    return {
      leads: page.map((lead) => ({ lead, isDuplicate: duplicates.has(lead.id!) })),
      totalItems: matching.length,
    };
  }

  async duplicatesAmong(vendorId: number, leadIds: number[]): Promise<Set<number>> {
    const duplicates = new Set<number>();
    for (const id of leadIds) {
      const lead = this.table.get(id);
      if (!lead || lead.vendorId !== vendorId) continue;
      const email = foldCase(lead.emailAddress);
      // D28: another active lead of the vendor, or a contact of the vendor that is not this lead's own
      const otherLead = this.table.find(
        (o) => o.vendorId === vendorId && foldCase(o.emailAddress) === email && !o.archived && o.id !== id,
      );
      const contact = this.contacts.table.find(
        (c) => c.vendorId === vendorId && c.emailNormalized === email && c.leadId !== id,
      );
      if (otherLead || contact) duplicates.add(id);
    }
    return duplicates;
  }

  /** The lead as stored now. */
  stored(leadId: number): LeadRow | undefined {
    return this.table.get(leadId);
  }

  /** Stores a lead as it stands, under a new id (for arranging a test); returns it as stored. */
  add(lead: Lead): Lead {
    if (this.taken(lead.vendorId, lead.partnerId, lead.emailNormalized)) throw emailTaken();
    const { id: _ignored, ...values } = lead.snapshot();
    return Lead.restore(this.table.insert(values));
  }
}

/** The entries in the order appended (ids keep that order, as lead_history's id does). */
export class InMemoryLeadHistory extends LeadHistory implements Transactional {
  private entries: LeadHistoryEntry[] = [];
  /** the batches appended, in order (one per append call) */
  appends = 0;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    uow.track(this);
  }

  async append(entries: readonly LeadHistoryEntry[]): Promise<void> {
    this.appends += 1;
    this.entries.push(...structuredClone([...entries]));
  }

  async listForLead(leadId: number): Promise<LeadHistoryEntry[]> {
    return structuredClone(this.entries.filter((entry) => entry.leadId === leadId));
  }

  /** Every entry, in the order written. */
  all(): LeadHistoryEntry[] {
    return structuredClone(this.entries);
  }

  snapshot(): unknown {
    return [...this.entries];
  }

  restore(state: unknown): void {
    this.entries = state as LeadHistoryEntry[];
  }
}

/** The bulk import's writer over the same lead table: a lead whose email the partner has is left out (D27). */
export class InMemoryLeadBatchWriter extends LeadBatchWriter {
  constructor(private readonly leads: InMemoryLeadRepository) {
    super();
  }

  async write(vendorId: number, partnerId: number, leads: readonly Lead[]): Promise<(number | null)[]> {
    return leads.map((lead) => {
      if (
        this.leads.table.find(
          (row) =>
            row.vendorId === vendorId &&
            row.partnerId === partnerId &&
            foldCase(row.emailAddress) === lead.emailNormalized,
        )
      ) {
        return null;
      }
      const { id: _none, ...values } = lead.snapshot();
      return this.leads.table.insert(values).id;
    });
  }
}
