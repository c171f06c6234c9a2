import type { Actor } from '../../shared/application/actor';
import { NotFoundError } from '../../shared/domain/domain-error';
import { Lead } from '../domain/lead';
import { historyEntries } from '../domain/lead-history';
import { LeadHistory } from './lead-history';
import { LeadRepository } from './lead-repository';

/**
 * The three state operations load the lead with a row lock (SELECT ... FOR UPDATE on MySQL, the
 * serialized transaction on SQLite), so concurrent calls on one lead run one after the other and
 * each sees what the previous one committed: the first approve converts, the others find
 * APPROVED and return its contact; the first reject records its comment, the others keep it (D32).
 */
export async function lockedLead(leads: LeadRepository, vendorId: number, leadId: number): Promise<Lead> {
  const lead = await leads.lockForVendor(leadId, vendorId);
  if (!lead) throw new NotFoundError('lead');
  return lead;
}

/**
 * Writes the lead and its history entry (X12) when the operation changed it; a retry that changed
 * nothing writes neither (D34), so it adds no entry.
 */
export async function saveChanged(
  leads: LeadRepository,
  history: LeadHistory,
  lead: Lead,
  actor: Actor,
): Promise<void> {
  if (lead.changes.length === 0) return;
  await leads.update(lead);
  await history.append(historyEntries(lead.id!, lead.changes, actor.apiKeyPrefix));
}
