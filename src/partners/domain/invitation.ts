import { SecretToken } from '../../shared/domain/secret-token';

/** The secret of one accept link (X20), a SecretToken: only its SHA-256 hash is stored in the invitations table. */
export class InvitationToken extends SecretToken {
  static generate(): InvitationToken {
    return new InvitationToken(SecretToken.randomValue());
  }
}

/** One sent invite: the link lets `userId` join the portal of `vendorId`; accepted once (X20). */
export interface NewInvitation {
  userId: number;
  vendorId: number;
  tokenHash: string;
  createdAt: Date;
}

/** X20: an invitation's link can be accepted for 14 days from the time it was issued. */
export const INVITATION_VALIDITY_DAYS = 14;
export const INVITATION_VALIDITY_MS = INVITATION_VALIDITY_DAYS * 24 * 60 * 60 * 1000;

export interface InvitationSnapshot {
  id: number;
  userId: number;
  vendorId: number;
  createdAt: Date;
  /** when the link was accepted; null while it was not */
  acceptedAt: Date | null;
  /** a later invitation of the same user for the same vendor exists (a reinvite replaced this one) */
  superseded: boolean;
}

/** A stored invitation, as the accept call (X20) finds it by the hash of its token. */
export class Invitation {
  private constructor(private readonly state: InvitationSnapshot) {}

  static restore(snapshot: InvitationSnapshot): Invitation {
    return new Invitation({ ...snapshot });
  }

  get id(): number {
    return this.state.id;
  }

  get userId(): number {
    return this.state.userId;
  }

  get vendorId(): number {
    return this.state.vendorId;
  }

  /**
   * X20: acceptable once, while it is the latest invitation of its user for its vendor, and for 14
   * days: at exactly 14 days after createdAt it has expired (docs/invitations.md). The caller answers
   * every "no" the same way, so the reason is not told apart here either.
   */
  isAcceptableAt(now: Date): boolean {
    return (
      this.state.acceptedAt === null &&
      !this.state.superseded &&
      now.getTime() - this.state.createdAt.getTime() < INVITATION_VALIDITY_MS
    );
  }
}
