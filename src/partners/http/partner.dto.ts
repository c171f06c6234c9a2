import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsOptional, ValidateNested } from 'class-validator';
import {
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
  @IsOptional()
  @IsArray({ message: 'must be a list' })
  @ArrayMinSize(1, { message: BATCH })
  @ArrayMaxSize(100, { message: BATCH })
  @ValidateNested({ each: true })
  @Type(() => PartnerUserBody)
  users?: PartnerUserBody[] | null;
}

/** api.md endpoint 3. */
export class AddPartnerUsersBody {
  @IsDefined({ message: 'is required' })
  @IsArray({ message: 'must be a list' })
  @ArrayMinSize(1, { message: BATCH })
  @ArrayMaxSize(100, { message: BATCH })
  @ValidateNested({ each: true })
  @Type(() => PartnerUserBody)
  users!: PartnerUserBody[];
}

/** api.md endpoint 2. */
export class ReinvitePartnerBody {
  @RequiredEmail() emailAddress!: string;
}
