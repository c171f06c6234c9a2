import { normalizeEmail } from '../../shared/domain/email';

export const PARTNER_TYPES = ['RESELLER', 'DISTRIBUTOR'] as const;
export type PartnerType = (typeof PARTNER_TYPES)[number];

/** The company fields a vendor sends when inviting a partner (docs/api.md endpoint 1). */
export interface PartnerProfile {
  companyName: string;
  description: string | null;
  website: string | null;
  country: string | null;
  companySize: string | null;
  contactName: string;
  contactEmailAddress: string;
  contactPhone: string | null;
  contactRole: string | null;
  type: PartnerType | null;
}

export interface PartnerSnapshot extends PartnerProfile {
  id: number;
  invitedAt: Date | null;
  createdAt: Date;
}

/**
 * A partner company. It belongs to no vendor: vendors are connected to it (D20), and its users
 * belong to it, not to a vendor (D40).
 */
export class Partner {
  private constructor(private readonly state: Omit<PartnerSnapshot, 'id'> & { id: number | undefined }) {}

  /** A partner created by an invite; its invite emails are queued by the same request, so invitedAt = now. */
  static invite(profile: PartnerProfile, now: Date): Partner {
    return new Partner({ ...profile, id: undefined, invitedAt: now, createdAt: now });
  }

  static restore(snapshot: PartnerSnapshot): Partner {
    return new Partner({ ...snapshot });
  }

  get id(): number {
    if (this.state.id === undefined) throw new Error('partner not stored yet');
    return this.state.id;
  }

  get companyName(): string {
    return this.state.companyName;
  }

  get invitedAt(): Date | null {
    return this.state.invitedAt;
  }

  get contactEmailNormalized(): string {
    return normalizeEmail(this.state.contactEmailAddress);
  }

  /** invitedAt is the time of the latest request that queued an invite email to one of its users (README). */
  invitedNow(now: Date): Partner {
    return new Partner({ ...this.state, invitedAt: now });
  }

  withId(id: number): Partner {
    return new Partner({ ...this.state, id });
  }

  snapshot(): PartnerSnapshot {
    return { ...this.state, id: this.id };
  }

  /** The profile without identity (for inserting). */
  profile(): Omit<PartnerSnapshot, 'id'> {
    const { id: _id, ...rest } = this.state;
    return rest;
  }
}
