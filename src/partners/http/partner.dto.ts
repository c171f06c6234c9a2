import {
  ListOf,
  LONG_TEXT,
  OptionalEnum,
  OptionalString,
  RequiredEmail,
  RequiredString,
} from '../../shared/http/validation';
import { PARTNER_TYPES, PartnerType } from '../domain/partner';

const BATCH = 'must hold 1 to 100 entries'; // D22

/** PartnerUserRequest (api.md); errors are named `users[1].emailAddress` (D13). */
export class PartnerUserBody {
  @RequiredString() firstName!: string;
  @RequiredEmail() emailAddress!: string;
  @OptionalString() lastName?: string | null;
  @OptionalString() phoneNumber?: string | null;
  @OptionalString() jobTitle?: string | null;
}

/** api.md endpoint 1. */
export class InvitePartnerBody {
  @RequiredString() companyName!: string;
  @RequiredString() contactName!: string;
  @RequiredEmail() contactEmailAddress!: string;
  @OptionalString(LONG_TEXT) description?: string | null;
  @OptionalString() website?: string | null;
  @OptionalString() country?: string | null;
  @OptionalString() companySize?: string | null;
  @OptionalString() contactPhone?: string | null;
  @OptionalString() contactRole?: string | null;
  @OptionalEnum(PARTNER_TYPES) type?: PartnerType | null; // D16
  /** omitted or null: the contact becomes the one user (D19) */
  @ListOf(PartnerUserBody, { min: 1, max: 100, sizeMessage: BATCH, required: false })
  users?: PartnerUserBody[] | null;
}

/** api.md endpoint 3. */
export class AddPartnerUsersBody {
  @ListOf(PartnerUserBody, { min: 1, max: 100, sizeMessage: BATCH, required: true })
  users!: PartnerUserBody[];
}

/** api.md endpoint 2. */
export class ReinvitePartnerBody {
  @RequiredEmail() emailAddress!: string;
}
