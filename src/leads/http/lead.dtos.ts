import {
  LONG_TEXT,
  OptionalId,
  OptionalInteger,
  OptionalString,
  PresentEmail,
  PresentString,
  RequiredEmail,
  RequiredString,
} from '../../shared/http/validation';
import { LEAD_AGE_MAX } from '../domain/lead-details';

/**
 * The writable lead fields (api.md "Lead"). Only these are read from a body; read-only and unknown
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
  @OptionalId() source?: number | null;
  @OptionalId() status?: number | null;
  @OptionalInteger(0, LEAD_AGE_MAX) leadAge?: number | null; // D15
  @OptionalString(LONG_TEXT) productsInterested?: string | null; // D14
  @OptionalString(LONG_TEXT) businessImpactMetrics?: string | null; // D14
  @OptionalString() externalId?: string | null;
}

/** Create (POST) and replace (PUT): the three required fields, everything else optional (D29: PUT clears what is omitted). */
export class LeadBody extends OptionalLeadFields {
  @RequiredString() firstName!: string;
  @RequiredEmail() emailAddress!: string;
  @RequiredString() companyName!: string;
}

/** Update (PATCH): every field may be omitted; the required ones may not be null (D29). */
export class LeadPatchBody extends OptionalLeadFields {
  @PresentString() firstName?: string;
  @PresentEmail() emailAddress?: string;
  @PresentString() companyName?: string;
}

/** Reject: an optional, nullable comment of up to 5,000 characters (D14); an empty body is no comment (D38). */
export class RejectLeadBody {
  @OptionalString(LONG_TEXT) comment?: string | null;
}
