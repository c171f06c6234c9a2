import { Partner } from '../domain/partner';
import { PartnerUser, PartnerUserRequest } from '../domain/partner-user';
import { PartnerUserBody } from './partner.dto';

/** api.md PartnerUser, field by field (D4: nothing internal, every nullable field present). */
export interface PartnerUserResponse {
  id: number;
  firstName: string;
  lastName: string | null;
  emailAddress: string;
  phoneNumber: string | null;
  jobTitle: string | null;
  lastActiveAt: string | null;
}

/** api.md Partner; `users` only on the invite response (D4). */
export interface PartnerResponse {
  id: number;
  companyName: string;
  description: string | null;
  website: string | null;
  country: string | null;
  companySize: string | null;
  contactName: string;
  contactEmailAddress: string;
  contactPhone: string | null;
  contactRole: string | null;
  type: string | null;
  users?: PartnerUserResponse[];
  invitedAt: string | null;
  createdAt: string;
}

export function toPartnerUserResponse(user: PartnerUser): PartnerUserResponse {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    emailAddress: user.emailAddress,
    phoneNumber: user.phoneNumber,
    jobTitle: user.jobTitle,
    lastActiveAt: user.lastActiveAt?.toISOString() ?? null, // D1
  };
}

export function toPartnerResponse(partner: Partner, users?: PartnerUser[]): PartnerResponse {
  const p = partner.snapshot();
  return {
    id: p.id,
    companyName: p.companyName,
    description: p.description,
    website: p.website,
    country: p.country,
    companySize: p.companySize,
    contactName: p.contactName,
    contactEmailAddress: p.contactEmailAddress,
    contactPhone: p.contactPhone,
    contactRole: p.contactRole,
    type: p.type,
    ...(users ? { users: users.map(toPartnerUserResponse) } : {}),
    invitedAt: p.invitedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
  };
}

/** A validated body element as use-case input: omitted optional fields become null. */
export function toUserRequest(body: PartnerUserBody): PartnerUserRequest {
  return {
    firstName: body.firstName,
    lastName: body.lastName ?? null,
    emailAddress: body.emailAddress,
    phoneNumber: body.phoneNumber ?? null,
    jobTitle: body.jobTitle ?? null,
  };
}
