import { Lead } from '../domain/lead';

/**
 * Stores new leads of one (vendor, partner), inside the caller's transaction: each lead whose email
 * the partner already has (D27, archived leads included) is left out; the others are inserted and
 * counted in the listing totals like leads created one by one. The leads themselves are not changed
 * (a transaction that MySQL rolls back as a deadlock victim is run again with the same leads).
 */
export abstract class LeadBatchWriter {
  /** For each lead, in order, the id it was stored with, or null when it was left out as a duplicate. */
  abstract write(vendorId: number, partnerId: number, leads: readonly Lead[]): Promise<(number | null)[]>;
}
