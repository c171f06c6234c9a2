import { normalizeEmail } from '../../shared/domain/email';

/** One element of a users list (PartnerUserRequest in docs/api.md). */
export interface PartnerUserRequest {
  firstName: string;
  lastName: string | null;
  emailAddress: string;
  phoneNumber: string | null;
  jobTitle: string | null;
}

export interface PartnerUser extends PartnerUserRequest {
  id: number;
  partnerId: number;
  /** null: the user never signed in to the portal, the invite is outstanding */
  lastActiveAt: Date | null;
  createdAt: Date;
}

export type NewPartnerUser = Omit<PartnerUser, 'id'>;

export function newPartnerUser(partnerId: number, request: PartnerUserRequest, now: Date): NewPartnerUser {
  return {
    partnerId,
    firstName: request.firstName,
    lastName: request.lastName,
    emailAddress: request.emailAddress,
    phoneNumber: request.phoneNumber,
    jobTitle: request.jobTitle,
    lastActiveAt: null,
    createdAt: now,
  };
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
