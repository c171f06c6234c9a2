import { ApiSchema } from '@nestjs/swagger';
import {
  DateTimeField,
  EmailField,
  EnumField,
  IdField,
  ListField,
  TextField,
} from '../../shared/http/response-fields';
import { PARTNER_TYPES, Partner, PartnerType } from '../domain/partner';
import { PartnerUser, PartnerUserRequest } from '../domain/partner-user';
import { PartnerUserBody } from './partner.dto';
import { isoDateTime } from '../../shared/domain/date-time';

const NULLABLE = true;

/** PartnerUser (docs/api.md), field by field (D4: nothing internal, every nullable field present). */
@ApiSchema({ name: 'PartnerUser' })
export class PartnerUserResponse {
  @IdField() id!: number;
  @TextField({ example: 'Andrew' }) firstName!: string;
  @TextField({ example: 'Fuller' }, NULLABLE) lastName!: string | null;
  @EmailField({ example: 'andrew@northwind.example' }) emailAddress!: string;
  @TextField({}, NULLABLE) phoneNumber!: string | null;
  @TextField({}, NULLABLE) jobTitle!: string | null;
  @DateTimeField(
    {
      description:
        'last activity in the partner portal, refreshed at most once per 24 hours; null: the invite is outstanding',
    },
    NULLABLE,
  )
  lastActiveAt!: string | null;
}

/**
 * Partner (docs/api.md). `users` is the one field whose content depends on the operation: the invite
 * answers the users it created (D19, D20), the partner reads answer null (X9, X10); every builder
 * call says which (`toPartnerResponse`).
 */
@ApiSchema({ name: 'Partner' })
export class PartnerResponse {
  @IdField() id!: number;
  @TextField({ example: 'Northwind' }) companyName!: string;
  @TextField({}, NULLABLE) description!: string | null;
  @TextField({}, NULLABLE) website!: string | null;
  @TextField({}, NULLABLE) country!: string | null;
  @TextField({}, NULLABLE) companySize!: string | null;
  @TextField({ example: 'Nancy Davolio' }) contactName!: string;
  @EmailField({ example: 'nancy@northwind.example' }) contactEmailAddress!: string;
  @TextField({}, NULLABLE) contactPhone!: string | null;
  @TextField({}, NULLABLE) contactRole!: string | null;
  @EnumField(PARTNER_TYPES, {}, NULLABLE) type!: PartnerType | null;
  @ListField(
    PartnerUserResponse,
    {
      description:
        'the users this invite created (D19, D20) in the invite’s answer; null in the partner listing and read (X9, X10)',
    },
    NULLABLE,
  )
  users!: PartnerUserResponse[] | null;
  @DateTimeField(
    { description: 'time of the last invite or reinvite (D23)', example: '2026-01-31T09:30:00.000Z' },
    NULLABLE,
  )
  invitedAt!: string | null;
  @DateTimeField() createdAt!: string;
}

export function toPartnerUserResponse(user: PartnerUser): PartnerUserResponse {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    emailAddress: user.emailAddress,
    phoneNumber: user.phoneNumber,
    jobTitle: user.jobTitle,
    lastActiveAt: user.lastActiveAt ? isoDateTime(user.lastActiveAt) : null, // D1
  };
}

/**
 * `users`: the users the invite created, or null for the partner reads (X9, X10), which do not list
 * users (endpoint 4 does). Required, so that no caller leaves the choice to a default.
 */
export function toPartnerResponse(partner: Partner, users: readonly PartnerUser[] | null): PartnerResponse {
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
    type: p.type as PartnerType | null,
    users: users === null ? null : users.map(toPartnerUserResponse),
    invitedAt: p.invitedAt ? isoDateTime(p.invitedAt) : null,
    createdAt: isoDateTime(p.createdAt),
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
