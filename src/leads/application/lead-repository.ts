import { Lead } from '../domain/lead';
import { LeadListQuery } from '../domain/lead-list-query';
import type { LeadView } from './lead-view';

export abstract class LeadRepository {
  /** Stores a new lead and gives it its id. DuplicateEntryError (emailAddress) when the email is taken (D27). */
  abstract insert(lead: Lead): Promise<void>;

  /**
   * Writes a changed lead back: one this repository inserted or locked (lockForVendor), never one
   * it only read (findForVendor, findViewForVendor, listForPartner), which is refused with an Error.
   * DuplicateEntryError (emailAddress) when its new email is taken (D27).
   */
  abstract update(lead: Lead): Promise<void>;

  /** The vendor's lead with this id; another vendor's lead is null, like a missing one (D27). */
  abstract findForVendor(leadId: number, vendorId: number): Promise<Lead | null>;

  /** findForVendor with the lead's isDuplicate (D28), in one read. */
  abstract findViewForVendor(leadId: number, vendorId: number): Promise<LeadView | null>;

  /**
   * Like findForVendor, and the row stays locked until the transaction ends, so concurrent writes
   * of one lead run one after the other and each decides on what the previous one committed (D32).
   */
  abstract lockForVendor(leadId: number, vendorId: number): Promise<Lead | null>;

  /** Whether another lead of this (vendor, partner) has this normalized email, archived ones included (D27). */
  abstract emailTaken(
    vendorId: number,
    partnerId: number,
    emailNormalized: string,
    exceptLeadId?: number,
  ): Promise<boolean>;

  /**
   * One page of a partner's leads for a vendor, each with its isDuplicate (D28, found for the whole
   * page at once, never lead by lead), and how many match in all (docs/api.md 6).
   */
  abstract listForPartner(query: LeadListQuery): Promise<{ leads: LeadView[]; totalItems: number }>;

  /**
   * D28: which of these leads are duplicates: another active lead of the vendor, or a contact of the
   * vendor that is not the lead's own, has the same email. One query for the whole set.
   */
  abstract duplicatesAmong(vendorId: number, leadIds: number[]): Promise<Set<number>>;
}
