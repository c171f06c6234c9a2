import { FieldError, ValidationError } from '../../shared/domain/domain-error';
import { LONG_TEXT, SHORT_TEXT, codePointLength, isBlank } from '../../shared/domain/text';

/** The writable fields of a lead (docs/api.md "Lead"): what create, replace and update may set. */
export interface LeadDetails {
  firstName: string;
  emailAddress: string;
  companyName: string;
  lastName: string | null;
  phoneNumber: string | null;
  linkedInUrl: string | null;
  websiteUrl: string | null;
  companySize: string | null;
  industry: string | null;
  jobTitle: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  source: number | null;
  status: number | null;
  leadAge: number | null;
  productsInterested: string | null;
  businessImpactMetrics: string | null;
  externalId: string | null;
}

/** PATCH input (D29): a field that is absent keeps its value; null clears a nullable field. */
export type LeadDetailsPatch = Partial<LeadDetails>;

/**
 * Every writable field, in the order the Lead object lists them (docs/api.md "Lead"): the order of
 * a history entry's `changedFields` (X12). A mapped type over LeadDetails: a field added to
 * LeadDetails and not here does not compile, so no field can be left out of a copy or a check.
 */
const IN_LEAD_ORDER: { readonly [K in keyof LeadDetails]: true } = {
  firstName: true,
  lastName: true,
  emailAddress: true,
  phoneNumber: true,
  linkedInUrl: true,
  companyName: true,
  websiteUrl: true,
  companySize: true,
  industry: true,
  jobTitle: true,
  city: true,
  state: true,
  country: true,
  source: true,
  status: true,
  leadAge: true,
  productsInterested: true,
  businessImpactMetrics: true,
  externalId: true,
};
export const WRITABLE_FIELDS_IN_LEAD_ORDER = Object.keys(IN_LEAD_ORDER) as readonly (keyof LeadDetails)[];

/** What each writable field is, for the checks of D14 and D15. */
export const REQUIRED_TEXT_FIELDS = ['firstName', 'emailAddress', 'companyName'] as const;
export const OPTIONAL_TEXT_FIELDS = [
  'lastName',
  'phoneNumber',
  'linkedInUrl',
  'websiteUrl',
  'companySize',
  'industry',
  'jobTitle',
  'city',
  'state',
  'country',
  'externalId',
] as const;
/** D14: the long texts allow 5,000 code points, every other string 255. */
export const LONG_TEXT_FIELDS = ['productsInterested', 'businessImpactMetrics'] as const;
export const ID_FIELDS = ['source', 'status'] as const;
type CheckedField =
  | (typeof REQUIRED_TEXT_FIELDS)[number]
  | (typeof OPTIONAL_TEXT_FIELDS)[number]
  | (typeof LONG_TEXT_FIELDS)[number]
  | (typeof ID_FIELDS)[number]
  | 'leadAge';
/** Compiles only while every writable field has its kind above, so none goes unchecked. */
const EVERY_FIELD_CHECKED: Record<Exclude<keyof LeadDetails, CheckedField>, never> = {};
void EVERY_FIELD_CHECKED;

/** The writable fields (in the order of the Lead object). */
export const WRITABLE_FIELDS: readonly (keyof LeadDetails)[] = WRITABLE_FIELDS_IN_LEAD_ORDER;

/** leadAge is stored in a 32-bit INT column. */
export const LEAD_AGE_MAX = 2_147_483_647;

function checkText(
  field: string,
  value: unknown,
  max: number,
  required: boolean,
  errors: FieldError[],
): void {
  if (value === null || value === undefined) {
    if (required) errors.push({ field, error: 'is required' });
    return;
  }
  if (typeof value !== 'string') errors.push({ field, error: 'must be a string' });
  else if (required && isBlank(value)) errors.push({ field, error: 'must not be empty or blank' });
  else if (codePointLength(value) > max) errors.push({ field, error: `must be at most ${max} characters` });
}

/**
 * The aggregate's own check of the business rules (D14, D15 leadAge): the HTTP edge validates the
 * shape first, this keeps a lead that reaches the domain another way (CLI, a future importer) valid too.
 */
export function checkLeadDetails(details: Partial<LeadDetailsDraft>, complete: boolean): void {
  const errors: FieldError[] = [];
  const has = (field: keyof LeadDetails) => complete || details[field] !== undefined;
  for (const field of REQUIRED_TEXT_FIELDS) {
    if (has(field)) checkText(field, details[field], SHORT_TEXT, true, errors);
  }
  for (const field of OPTIONAL_TEXT_FIELDS) {
    if (has(field)) checkText(field, details[field], SHORT_TEXT, false, errors);
  }
  for (const field of LONG_TEXT_FIELDS) {
    if (has(field)) checkText(field, details[field], LONG_TEXT, false, errors);
  }
  for (const field of ID_FIELDS) {
    const value = details[field];
    if (has(field) && value !== null && value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
      errors.push({ field, error: 'must be a positive integer id' });
    }
  }
  const age = details.leadAge;
  if (
    has('leadAge') &&
    age !== null &&
    age !== undefined &&
    !(Number.isInteger(age) && age >= 0 && age <= LEAD_AGE_MAX)
  ) {
    errors.push({ field: 'leadAge', error: `must be an integer from 0 to ${LEAD_AGE_MAX}` });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

/**
 * POST and PUT input with every writable field present (D29): what the caller sent, null for what it
 * left out. Not yet checked, so a required field may be null here.
 */
export type LeadDetailsDraft = { [K in keyof LeadDetails]: LeadDetails[K] | null };

/** Every writable field the caller left out is null (PUT, D29). Written out, so it copies every field. */
export function completeDetails(input: LeadDetailsPatch): LeadDetailsDraft {
  return {
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    emailAddress: input.emailAddress ?? null,
    phoneNumber: input.phoneNumber ?? null,
    linkedInUrl: input.linkedInUrl ?? null,
    companyName: input.companyName ?? null,
    websiteUrl: input.websiteUrl ?? null,
    companySize: input.companySize ?? null,
    industry: input.industry ?? null,
    jobTitle: input.jobTitle ?? null,
    city: input.city ?? null,
    state: input.state ?? null,
    country: input.country ?? null,
    source: input.source ?? null,
    status: input.status ?? null,
    leadAge: input.leadAge ?? null,
    productsInterested: input.productsInterested ?? null,
    businessImpactMetrics: input.businessImpactMetrics ?? null,
    externalId: input.externalId ?? null,
  };
}

/** A complete draft checked against D14 and D15: the same object, now known to hold every required field. */
export function checkedDetails(draft: LeadDetailsDraft): LeadDetails {
  checkLeadDetails(draft, true);
  return draft as LeadDetails; // checkLeadDetails has refused a null required field
}

/** The writable fields of a stored lead, field by field (a new field that is not copied does not compile). */
export function detailsOf(source: LeadDetails): LeadDetails {
  return {
    firstName: source.firstName,
    lastName: source.lastName,
    emailAddress: source.emailAddress,
    phoneNumber: source.phoneNumber,
    linkedInUrl: source.linkedInUrl,
    companyName: source.companyName,
    websiteUrl: source.websiteUrl,
    companySize: source.companySize,
    industry: source.industry,
    jobTitle: source.jobTitle,
    city: source.city,
    state: source.state,
    country: source.country,
    source: source.source,
    status: source.status,
    leadAge: source.leadAge,
    productsInterested: source.productsInterested,
    businessImpactMetrics: source.businessImpactMetrics,
    externalId: source.externalId,
  };
}
