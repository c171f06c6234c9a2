import { createHash, randomBytes } from 'node:crypto';

/**
 * The secret of one accept link: 32 random bytes, base64url. Only its SHA-256 hash is stored in the
 * invitations table; a fast hash suffices because the secret has full entropy.
 */
export class InvitationToken {
  private constructor(readonly value: string) {}

  static generate(): InvitationToken {
    return new InvitationToken(randomBytes(32).toString('base64url'));
  }

  static hash(presented: string): string {
    return createHash('sha256').update(presented, 'utf8').digest('hex');
  }

  get hash(): string {
    return InvitationToken.hash(this.value);
  }
}

/** One sent invite: the link lets `userId` join the portal of `vendorId`; used once (usedAt). */
export interface NewInvitation {
  userId: number;
  vendorId: number;
  tokenHash: string;
  createdAt: Date;
}
