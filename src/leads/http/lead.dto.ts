import { ApiSchema } from '@nestjs/swagger';
import {
  PathId,
  QueryBoolean,
  QueryDate,
  QueryEnum,
  QueryIdList,
  QueryInteger,
  QueryText,
} from '../../shared/http/query-fields';
import {
  LONG_TEXT,
  SHORT_TEXT,
  OptionalId,
  OptionalInteger,
  OptionalString,
  PresentEmail,
  PresentString,
  RequiredEmail,
  RequiredString,
} from '../../shared/http/validation';
import { LEAD_AGE_MAX } from '../domain/lead-details';
import { LEAD_SORT_FIELDS, LeadSortField } from '../domain/lead-list-query';
import { APPROVAL_STATUSES, ApprovalStatus } from '../domain/lead-transitions';

/**
 * The writable lead fields (docs/api.md "Lead"). Only these are read from a body; read-only and unknown
 * fields are dropped (D5), so a client may GET a lead, edit it and PUT it back whole.
 */
class OptionalLeadFields {
  @OptionalString() lastName?: string | null;
  @OptionalString() phoneNumber?: string | null;
  @OptionalString() linkedInUrl?: string | null;
  @OptionalString() websiteUrl?: string | null;
  @OptionalString() companySize?: string | null;
  @OptionalString() industry?: string | null;
  @OptionalString() jobTitle?: string | null;
  @OptionalString() city?: string | null;
  @OptionalString() state?: string | null;
  @OptionalString() country?: string | null;
  @OptionalId({ description: 'id of one of the vendor’s lead sources (D15)' }) source?: number | null;
  @OptionalId({ description: 'id of one of the vendor’s lead statuses (D15)' }) status?: number | null;
  @OptionalInteger(0, LEAD_AGE_MAX) leadAge?: number | null; // D15
  @OptionalString(LONG_TEXT) productsInterested?: string | null; // D14
  @OptionalString(LONG_TEXT) businessImpactMetrics?: string | null; // D14
  @OptionalString() externalId?: string | null;
}

/** Create (POST) and replace (PUT): the three required fields, everything else optional (D29: PUT clears what is omitted). */
@ApiSchema({ name: 'LeadRequest' })
export class LeadBody extends OptionalLeadFields {
  @RequiredString(SHORT_TEXT, { example: 'Maria' }) firstName!: string;
  @RequiredEmail({
    description: 'unique per partner and vendor, case-insensitive, archived leads included (D27)',
    example: 'maria@alfreds.example',
  })
  emailAddress!: string;
  @RequiredString(SHORT_TEXT, { example: 'Alfreds Futterkiste' }) companyName!: string;
}

/** Update (PATCH): every field may be omitted; the required ones may not be null (D29). */
@ApiSchema({ name: 'LeadPatchRequest' })
export class LeadPatchBody extends OptionalLeadFields {
  @PresentString(SHORT_TEXT, { example: 'Maria' }) firstName?: string;
  @PresentEmail({ example: 'maria@alfreds.example' }) emailAddress?: string;
  @PresentString() companyName?: string;
}

/** Reject: an optional, nullable comment of up to 5,000 characters (D14); an empty body is no comment (D38). */
@ApiSchema({ name: 'RejectLeadRequest' })
export class RejectLeadBody {
  @OptionalString(LONG_TEXT) comment?: string | null;
}

export class LeadPath {
  @PathId('the lead') leadId!: number;
}

export class PartnerLeadsPath {
  @PathId('the partner') partnerId!: number;
}

/** The listing's parameters (D33, D39); every filter combines with AND. */
export class ListLeadsQuery {
  @QueryInteger({ default: 0, min: 0, description: 'page number, from 0' }) page!: number;
  @QueryInteger({ default: 20, min: 1, max: 100, description: 'leads per page' }) perPage!: number;
  @QueryEnum(LEAD_SORT_FIELDS, {
    default: 'createdAt',
    fallback: true,
    description: 'sort key; ties are broken by id in the same direction (D33)',
  })
  sortBy!: LeadSortField;
  @QueryEnum(['asc', 'desc'] as const, {
    default: 'desc',
    caseInsensitive: true,
    description: 'sort direction',
  })
  sortDirection!: 'asc' | 'desc';
  @QueryEnum(APPROVAL_STATUSES, { description: 'only leads in this approval status' })
  approvalStatus?: ApprovalStatus;
  @QueryIdList('Only leads with this status id.') status!: number[];
  @QueryIdList('Only leads with this source id.') source!: number[];
  @QueryText(
    'literal, case-insensitive prefix of firstName or emailAddress (`%`, `_` and `\\` match themselves, D33)',
  )
  keyword?: string;
  @QueryDate('leads created on or after this UTC day') createdAtAfter?: Date;
  @QueryDate('leads created on or before this UTC day (inclusive, D33)') createdAtBefore?: Date;
  @QueryBoolean({
    default: false,
    description: '`true`: archived leads only; `false` (the same as omitted): not archived',
  })
  archived!: boolean;
}
