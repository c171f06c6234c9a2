import { normalizeEmail } from '../../shared/domain/email';

export const PARTNER_TYPES = ['RESELLER', 'DISTRIBUTOR'] as const;
export type PartnerType = (typeof PARTNER_TYPES)[number];

/** X9: the keys the partner listing sorts by; an unknown sortBy falls back to createdAt, as in the lead listing. */
export const PARTNER_SORT_KEYS = ['createdAt', 'companyName', 'id'] as const;
export type PartnerSortKey = (typeof PARTNER_SORT_KEYS)[number];

/** X9: one page of the partners connected to a vendor; ties on the sort key are broken by id in the same direction. */
export interface PartnerListQuery {
  vendorId: number;
  page: number;
  perPage: number;
  sortBy: PartnerSortKey;
  sortDirection: 'asc' | 'desc';
  /** a literal, case-insensitive prefix of companyName or contactEmailAddress */
  keyword?: string;
  type?: PartnerType;
}

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
  private constructor(private state: Omit<PartnerSnapshot, 'id'> & { id: number | undefined }) {}

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
  recordInvitation(now: Date): void {
    this.state = { ...this.state, invitedAt: now };
  }

  /** Sets the id the database gave a newly inserted partner. */
  identify(id: number): void {
    if (this.state.id !== undefined) throw new Error(`partner ${this.state.id} already has an id`);
    this.state = { ...this.state, id };
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
