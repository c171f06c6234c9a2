import { Page } from '../../shared/application/page';
import { Partner, PartnerListQuery } from '../domain/partner';

/**
 * `forUpdate`: lock the partner's row until the transaction ends (MySQL). Every request that will
 * send invites for a partner takes it first, so concurrent ones queue instead of deadlocking when
 * each, holding the shared lock its inserts' foreign keys took, tries to update invitedAt.
 */
export interface PartnerLock {
  forUpdate?: boolean;
}

export abstract class PartnerRepository {
  /** Stores a new partner and gives it its id (identify); returns it. */
  abstract insert(partner: Partner): Promise<Partner>;
  abstract findById(partnerId: number, lock?: PartnerLock): Promise<Partner | null>;
  /** The partner when it exists and is connected to the vendor (D25); otherwise null. */
  abstract findConnected(vendorId: number, partnerId: number, lock?: PartnerLock): Promise<Partner | null>;
  /**
   * Connects the vendor to the partner (D20); ConcurrentWriteConflict when the connection exists.
   * Takes the stored partner: the connection keeps copies of what the vendor's listing sorts and
   * searches by (X9).
   */
  abstract connect(vendorId: number, partner: Partner, at: Date): Promise<void>;
  /** X9: one page of the partners connected to the vendor, and how many match in all. */
  abstract listForVendor(query: PartnerListQuery): Promise<Page<Partner>>;
  abstract recordInvitedAt(partnerId: number, at: Date): Promise<void>;
}
