import { Invitation, NewInvitation } from '../domain/invitation';

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
