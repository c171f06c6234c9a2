import { Injectable } from '@nestjs/common';
import { FieldError } from '../../shared/domain/domain-error';
import { isDeliverableEmailAddress } from '../../shared/domain/email';
import { codePointLength, isBlank } from '../../shared/domain/text';
import { LONG_TEXT, MAX_ID, SHORT_TEXT, isWellFormedText, validateBody } from '../../shared/http/validation';
import { LeadRequestValidator } from '../application/lead-request-validator';
import {
  ID_FIELDS,
  LEAD_AGE_MAX,
  LONG_TEXT_FIELDS,
  LeadDetails,
  OPTIONAL_TEXT_FIELDS,
  REQUIRED_TEXT_FIELDS,
} from '../domain/lead-details';
import { LeadBody } from './lead.dto';

const hasOwn = (body: object, field: string) => Object.prototype.hasOwnProperty.call(body, field);

/** D14: at most `max` code points (a string no longer in UTF-16 units needs no count), well formed. */
function isText(value: unknown, max: number): value is string {
  return (
    typeof value === 'string' &&
    (value.length <= max || codePointLength(value) <= max) &&
    isWellFormedText(value)
  );
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

type Accepts = (value: unknown) => boolean;
const shortText: Accepts = (value) => isText(value, SHORT_TEXT);
const longText: Accepts = (value) => isText(value, LONG_TEXT);
const optionId: Accepts = (value) => isIntegerIn(value, 1, MAX_ID);
const leadAge: Accepts = (value) => isIntegerIn(value, 0, LEAD_AGE_MAX);

/** LeadBody's optional fields (IsOptional: null or absent passes) and what a present value must be. */
const OPTIONAL_FIELDS: readonly (readonly [string, Accepts])[] = [
  ...OPTIONAL_TEXT_FIELDS.map((field) => [field, shortText] as const),
  ...LONG_TEXT_FIELDS.map((field) => [field, longText] as const),
  ...ID_FIELDS.map((field) => [field, optionId] as const),
  ['leadAge', leadAge],
];

/**
 * The details of a body that LeadBody's decorators certainly accept, checked with the same
 * predicates (isDeliverableEmailAddress, code points, no unpaired surrogate) in plain code; null
 * when any field is in doubt. Only a shortcut: class-validator's validateSync costs about 50 µs a
 * body, which alone would take most of a minute for a million rows, and about a fifth of the CPU
 * of a POST or PUT of a lead, whose body spec uses it too (docs/performance.md, "A lead body that certainly passes skips class-validator").
 */
export function acceptedLeadBody(body: Record<string, unknown>): Partial<LeadDetails> | null {
  const details: Record<string, unknown> = {};
  for (const field of REQUIRED_TEXT_FIELDS) {
    const value = hasOwn(body, field) ? body[field] : undefined;
    if (!isText(value, SHORT_TEXT) || isBlank(value)) return null;
    details[field] = value;
  }
  if (!isDeliverableEmailAddress(details.emailAddress as string)) return null;
  for (const [field, accepts] of OPTIONAL_FIELDS) {
    if (!hasOwn(body, field)) continue;
    const value = body[field];
    if (value !== null && value !== undefined && !accepts(value)) return null;
    details[field] = value;
  }
  return details as Partial<LeadDetails>;
}

/**
 * POST leads' validation of a body (LeadBody through validateBody) for callers that are not HTTP
 * requests (the bulk import, X13). A body the shortcut above accepts is answered at once; any
 * other goes through validateBody itself, so errors are worded and ordered exactly as the API's.
 * class-validator-lead-request-validator.spec.ts checks that both paths agree on every kind of body.
 */
@Injectable()
export class ClassValidatorLeadRequestValidator extends LeadRequestValidator {
  validate(body: Record<string, unknown>): { details: Partial<LeadDetails>; errors: FieldError[] } {
    const accepted = acceptedLeadBody(body);
    if (accepted) return { details: accepted, errors: [] };
    const { value, errors } = validateBody(LeadBody, body);
    return { details: { ...value }, errors };
  }
}
