import { Page } from '../../shared/application/page';
import { PartnerUser, PartnerUserListQuery } from '../domain/partner-user';

export abstract class PartnerUserRepository {
  /** The user with this address, across all partners (D13: addresses are unique across all users). */
  abstract findByEmail(emailNormalized: string): Promise<PartnerUser | null>;
  /** Which of these normalized addresses already belong to a user. */
  abstract takenEmails(emailsNormalized: string[]): Promise<Set<string>>;
  abstract findInPartnerByEmail(partnerId: number, emailNormalized: string): Promise<PartnerUser | null>;
  abstract findById(userId: number): Promise<PartnerUser | null>;
  /**
   * The user when it belongs to this partner (X21), its row locked until the transaction ends, so
   * that concurrent reports of activity move lastActiveAt once; null for any other id.
   */
  abstract lockInPartner(partnerId: number, userId: number): Promise<PartnerUser | null>;
  /** Writes the user's lastActiveAt as the domain decided it (X20, X21). */
  abstract saveLastActiveAt(user: PartnerUser): Promise<void>;
  /** Inserts in order and gives each its id (identify); returns them. ConcurrentWriteConflict when an address was taken meanwhile (unique index). */
  abstract insertAll(users: PartnerUser[]): Promise<PartnerUser[]>;
  abstract listForPartner(query: PartnerUserListQuery): Promise<Page<PartnerUser>>;
}
