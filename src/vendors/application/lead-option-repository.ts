import type { LeadOption, LeadOptionKind } from '../domain/lead-option';

export abstract class LeadOptionRepository {
  abstract insert(option: Omit<LeadOption, 'id'>, createdAt: Date): Promise<LeadOption>;
  abstract listForVendor(vendorId: number): Promise<LeadOption[]>;
  /** The options among `ids` that belong to the vendor and are of the given kind. */
  abstract findForVendor(vendorId: number, kind: LeadOptionKind, ids: number[]): Promise<LeadOption[]>;
}
