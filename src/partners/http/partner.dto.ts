import { ApiSchema } from '@nestjs/swagger';
import { PathId, QueryEnum, QueryInteger } from '../../shared/http/query-fields';
import {
  ListOf,
  SHORT_TEXT,
  LONG_TEXT,
  OptionalEnum,
  OptionalString,
  RequiredEmail,
  RequiredString,
} from '../../shared/http/validation';
import { PARTNER_TYPES, PartnerType } from '../domain/partner';
import { PARTNER_USER_SORT_KEYS, PartnerUserSortKey } from '../domain/partner-user';

const BATCH = 'must hold 1 to 100 entries'; // D22

/** PartnerUserRequest (docs/api.md); errors are named `users[1].emailAddress` (D13). */
@ApiSchema({ name: 'PartnerUserRequest' })
export class PartnerUserBody {
  @RequiredString(SHORT_TEXT, { example: 'Andrew' }) firstName!: string;
  @RequiredEmail({ description: 'must belong to no existing partner user (D21)', example: 'andrew@northwind.example' })
  emailAddress!: string;
  @OptionalString() lastName?: string | null;
  @OptionalString() phoneNumber?: string | null;
  @OptionalString() jobTitle?: string | null;
}

/** Endpoint 1 (docs/api.md). */
@ApiSchema({ name: 'InvitePartnerRequest' })
export class InvitePartnerBody {
  @RequiredString(SHORT_TEXT, { example: 'Northwind' }) companyName!: string;
  @RequiredString(SHORT_TEXT, { example: 'Nancy Davolio' }) contactName!: string;
  @RequiredEmail({
    description: 'an address that already belongs to a partner user connects that partner instead (D20)',
    example: 'nancy@northwind.example',
  })
  contactEmailAddress!: string;
  @OptionalString(LONG_TEXT) description?: string | null;
  @OptionalString() website?: string | null;
  @OptionalString() country?: string | null;
  @OptionalString() companySize?: string | null;
  @OptionalString() contactPhone?: string | null;
  @OptionalString() contactRole?: string | null;
  @OptionalEnum(PARTNER_TYPES, { example: 'RESELLER' }) type?: PartnerType | null; // D16
  @ListOf(
    PartnerUserBody,
    { min: 1, max: 100, sizeMessage: BATCH, required: false },
    { description: 'omitted or null: the contact becomes the one user (D19)' },
  )
  users?: PartnerUserBody[] | null;
}

/** Endpoint 3 (docs/api.md). */
@ApiSchema({ name: 'AddPartnerUsersRequest' })
export class AddPartnerUsersBody {
  @ListOf(PartnerUserBody, { min: 1, max: 100, sizeMessage: BATCH, required: true })
  users!: PartnerUserBody[];
}

/** Endpoint 2 (docs/api.md). */
@ApiSchema({ name: 'ReinvitePartnerRequest' })
export class ReinvitePartnerBody {
  @RequiredEmail({ description: 'a user of this partner (D23)', example: 'andrew@northwind.example' })
  emailAddress!: string;
}

export class PartnerPath {
  @PathId('the partner') partnerId!: number;
}

/** D24: always ascending, ties broken by id. */
export class ListPartnerUsersQuery {
  @QueryInteger({ default: 0, min: 0, description: 'page number, from 0' }) page!: number;
  @QueryInteger({ default: 20, min: 1, max: 100, description: 'users per page' }) perPage!: number;
  @QueryEnum(PARTNER_USER_SORT_KEYS, {
    default: 'id',
    fallback: true,
    description: 'sort key, always ascending; ties are broken by id (D24)',
  })
  sortBy!: PartnerUserSortKey;
}
