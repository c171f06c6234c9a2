import type { LeadHistoryEntry } from '../domain/lead-history';

/**
 * Port: a lead's history (X12). Entries are appended inside the transaction of the change they
 * record (the caller's UnitOfWork.run), so an entry exists exactly when its change was committed:
 * a request that fails, or is rolled back after the entry was written, leaves none.
 */
export abstract class LeadHistory {
  /** Appends the entries in order, within the caller's transaction. Many at once for the bulk import. */
  abstract append(entries: readonly LeadHistoryEntry[]): Promise<void>;

  /** The lead's entries, oldest first (in the order they were written). */
  abstract listForLead(leadId: number): Promise<LeadHistoryEntry[]>;
}
