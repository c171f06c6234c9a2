import type { LeadView } from './lead-view';

/** What happened to a lead (X17, docs/webhooks.md), told with the lead as it now stands. */
export type LeadEvent =
  | { type: 'lead.created' | 'lead.rejected' | 'lead.archived'; lead: LeadView }
  | { type: 'lead.updated'; lead: LeadView; changedFields: readonly string[] }
  | { type: 'lead.approved'; lead: LeadView; contactId: number };

/**
 * Port for the lead use cases: publishes what happened, in the caller's transaction (X17). Call it
 * inside `UnitOfWork.run`, after the change it reports and only when the change changed something.
 * The adapter renders the lead as the API returns it (X18), which is HTTP code the use cases may not
 * import, and hands the event to the shared `DomainEvents` port.
 */
export abstract class LeadEvents {
  abstract publish(vendorId: number, event: LeadEvent): Promise<void>;
}
