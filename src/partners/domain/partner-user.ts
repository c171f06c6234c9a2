import { normalizeEmail } from '../../shared/domain/email';

/** One element of a users list (PartnerUserRequest in docs/api.md). */
export interface PartnerUserRequest {
  firstName: string;
  lastName: string | null;
  emailAddress: string;
  phoneNumber: string | null;
  jobTitle: string | null;
}

export interface PartnerUserSnapshot extends PartnerUserRequest {
  id: number;
  partnerId: number;
  /**
   * The user's last activity in the vendor's partner portal, refreshed at most once per 24 hours
   * (X21). null: the user never accepted an invitation nor was reported active, i.e. the invite is
   * outstanding (docs/invitations.md).
   */
  lastActiveAt: Date | null;
  createdAt: Date;
}

/** X21: lastActiveAt moves at most once per this period. */
export const ACTIVITY_REFRESH_MS = 24 * 60 * 60 * 1000;

/** A person of a partner company, invited to the vendors' partner portals (D13, D40). */
export class PartnerUser {
  private constructor(private state: Omit<PartnerUserSnapshot, 'id'> & { id: number | undefined }) {}

  /** A user a vendor asked for (docs/api.md endpoints 1 and 3): the invite is outstanding, lastActiveAt null. */
  static register(partnerId: number, request: PartnerUserRequest, now: Date): PartnerUser {
    return new PartnerUser({
      id: undefined,
      partnerId,
      firstName: request.firstName,
      lastName: request.lastName,
      emailAddress: request.emailAddress,
      phoneNumber: request.phoneNumber,
      jobTitle: request.jobTitle,
      lastActiveAt: null,
      createdAt: now,
    });
  }

  static restore(snapshot: PartnerUserSnapshot): PartnerUser {
    return new PartnerUser({ ...snapshot });
  }

  snapshot(): PartnerUserSnapshot {
    return { ...this.state, id: this.id };
  }

  get id(): number {
    if (this.state.id === undefined) throw new Error('partner user not stored yet');
    return this.state.id;
  }
  get partnerId(): number {
    return this.state.partnerId;
  }
  get firstName(): string {
    return this.state.firstName;
  }
  get lastName(): string | null {
    return this.state.lastName;
  }
  get emailAddress(): string {
    return this.state.emailAddress;
  }
  get phoneNumber(): string | null {
    return this.state.phoneNumber;
  }
  get jobTitle(): string | null {
    return this.state.jobTitle;
  }
  get lastActiveAt(): Date | null {
    return this.state.lastActiveAt;
  }
  get createdAt(): Date {
    return this.state.createdAt;
  }

  /** Sets the id the database gave a newly inserted user. */
  identify(id: number): void {
    if (this.state.id !== undefined) throw new Error(`partner user ${this.state.id} already has an id`);
    this.state = { ...this.state, id };
  }

  /**
   * X21: the portal reports that the user was active at `now`. lastActiveAt becomes `now` when it is
   * null or at least 24 hours old (exactly 24:00:00.000 refreshes, 23:59:59.999 does not), so it moves
   * at most once per 24 hours. Returns whether it moved: when not, nothing needs to be written. A
   * lastActiveAt later than `now` (a clock set back) is kept.
   */
  recordActivity(now: Date): boolean {
    const last = this.state.lastActiveAt;
    if (last !== null && now.getTime() - last.getTime() < ACTIVITY_REFRESH_MS) return false;
    this.state = { ...this.state, lastActiveAt: now };
    return true;
  }

  /**
   * X20: the user accepted an invitation at `now`. lastActiveAt is set to `now` whatever it was: an
   * acceptance is activity, and it is never skipped by the 24-hour rule of recordActivity.
   */
  acceptInvitation(now: Date): void {
    this.state = { ...this.state, lastActiveAt: now };
  }
}

/**
 * D19: the users a new partner starts with. Without a list, the contact becomes the one user
 * (firstName = the whole contactName, no lastName); with a list, exactly those users, whether or not
 * the contact address is among them.
 */
export function initialUsers(
  contact: { contactName: string; contactEmailAddress: string },
  users: PartnerUserRequest[] | null,
): PartnerUserRequest[] {
  if (users !== null) return users;
  return [
    {
      firstName: contact.contactName,
      lastName: null,
      emailAddress: contact.contactEmailAddress,
      phoneNumber: null,
      jobTitle: null,
    },
  ];
}

/**
 * D21: the index of the first entry (in list order) whose address belongs to an existing user or
 * repeats an earlier entry of the list (so for a repeat, the later occurrence). Case-insensitive (D13).
 */
export function firstDuplicateEmail(
  users: PartnerUserRequest[],
  taken: ReadonlySet<string>,
): number | undefined {
  const seen = new Set<string>();
  for (const [index, user] of users.entries()) {
    const email = normalizeEmail(user.emailAddress);
    if (taken.has(email) || seen.has(email)) return index;
    seen.add(email);
  }
  return undefined;
}

/** D24: the keys the user listing sorts by; anything else falls back to id (docs/api.md endpoint 4). */
export const PARTNER_USER_SORT_KEYS = [
  'id',
  'firstName',
  'lastName',
  'emailAddress',
  'jobTitle',
  'createdAt',
] as const;
export type PartnerUserSortKey = (typeof PARTNER_USER_SORT_KEYS)[number];

export interface PartnerUserListQuery {
  partnerId: number;
  page: number;
  perPage: number;
  sortBy: PartnerUserSortKey;
}
