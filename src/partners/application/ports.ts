import { Page } from '../../shared/application/page';
import { Invitation, NewInvitation } from '../domain/invitation';
import { Partner, PartnerListQuery } from '../domain/partner';
import { NewPartnerUser, PartnerUser, PartnerUserListQuery } from '../domain/partner-user';

/**
 * A unique index refused a write because a concurrent request got there first (an email address
 * taken, a vendor connection made). The use case runs once more and then answers as the winner's
 * committed state says (DUPLICATE_ENTRY or D20 connect).
 */
export class ConcurrentWriteConflict extends Error {
  constructor(readonly emailNormalized?: string) {
    super(emailNormalized ? `email address taken concurrently` : 'vendor connection made concurrently');
    this.name = 'ConcurrentWriteConflict';
  }
}

/**
 * `forUpdate`: lock the partner's row until the transaction ends (MySQL). Every request that will
 * send invites for a partner takes it first, so concurrent ones queue instead of deadlocking when
 * each, holding the shared lock its inserts' foreign keys took, tries to update invitedAt.
 */
export interface PartnerLock {
  forUpdate?: boolean;
}

export abstract class PartnerRepository {
  abstract insert(partner: Partner): Promise<Partner>;
  abstract findById(partnerId: number, lock?: PartnerLock): Promise<Partner | null>;
  /** The partner when it exists and is connected to the vendor (D25); otherwise null. */
  abstract findConnected(vendorId: number, partnerId: number, lock?: PartnerLock): Promise<Partner | null>;
  abstract isConnected(vendorId: number, partnerId: number): Promise<boolean>;
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

export abstract class PartnerUserRepository {
  /** The user with this address, across all partners (D13: addresses are unique across all users). */
  abstract findByEmail(emailNormalized: string): Promise<PartnerUser | null>;
  /** Which of these normalized addresses already belong to a user. */
  abstract takenEmails(emailsNormalized: string[]): Promise<Set<string>>;
  abstract findInPartnerByEmail(partnerId: number, emailNormalized: string): Promise<PartnerUser | null>;
  abstract findById(userId: number): Promise<PartnerUser | null>;
  /** The user when it belongs to this partner (X21); null for any other id. */
  abstract findInPartner(partnerId: number, userId: number): Promise<PartnerUser | null>;
  /** Writes the user's lastActiveAt as the domain decided it (X20, X21). */
  abstract saveLastActiveAt(user: PartnerUser): Promise<void>;
  /** Inserts in order; ConcurrentWriteConflict when an address was taken meanwhile (unique index). */
  abstract insertAll(users: NewPartnerUser[]): Promise<PartnerUser[]>;
  abstract listForPartner(query: PartnerUserListQuery): Promise<Page<PartnerUser>>;
}

export abstract class InvitationRepository {
  abstract insert(invitation: NewInvitation): Promise<void>;
  /**
   * X20: the invitation of this vendor whose token has this SHA-256 hash, looked up through the
   * unique index on the hash (the token is never compared in code); null when there is none.
   */
  abstract findForVendorByTokenHash(vendorId: number, tokenHash: string): Promise<Invitation | null>;
  /**
   * Marks the invitation accepted unless it already is, in one conditional write: false when a
   * concurrent accept of the same token got there first (the database decides, X20).
   */
  abstract markAccepted(invitationId: number, at: Date): Promise<boolean>;
}

/** The vendor's display name, for the invite email. */
export abstract class VendorDirectory {
  abstract nameOf(vendorId: number): Promise<string>;
}
