import { FieldError, ValidationError } from '../../shared/domain/domain-error';
import { codePointLength } from '../../shared/domain/text';

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
export const WRITABLE_FIELDS: readonly (keyof LeadDetails)[] = [
  ...REQUIRED_TEXT_FIELDS,
  ...OPTIONAL_TEXT_FIELDS,
  ...LONG_TEXT_FIELDS,
  ...ID_FIELDS,
  'leadAge',
];

export const SHORT_TEXT_LIMIT = 255;
export const LONG_TEXT_LIMIT = 5000;
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
  else if (required && value.trim() === '') errors.push({ field, error: 'must not be empty or blank' });
  else if (codePointLength(value) > max) errors.push({ field, error: `must be at most ${max} characters` });
}

/**
 * The aggregate's own check of the business rules (D14, D15 leadAge): the HTTP edge validates the
 * shape first, this keeps a lead that reaches the domain another way (CLI, a future importer) valid too.
 */
export function checkLeadDetails(details: LeadDetailsPatch, complete: boolean): void {
  const errors: FieldError[] = [];
  const has = (field: keyof LeadDetails) => complete || details[field] !== undefined;
  for (const field of REQUIRED_TEXT_FIELDS) {
    if (has(field)) checkText(field, details[field], SHORT_TEXT_LIMIT, true, errors);
  }
  for (const field of OPTIONAL_TEXT_FIELDS) {
    if (has(field)) checkText(field, details[field], SHORT_TEXT_LIMIT, false, errors);
  }
  for (const field of LONG_TEXT_FIELDS) {
    if (has(field)) checkText(field, details[field], LONG_TEXT_LIMIT, false, errors);
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

/** A complete set of details where every writable field the caller left out is null (PUT, D29). */
export function completeDetails(input: Partial<LeadDetails>): LeadDetails {
  const details = {} as Record<keyof LeadDetails, unknown>;
  for (const field of WRITABLE_FIELDS) details[field] = input[field] ?? null;
  return details as unknown as LeadDetails;
}
