import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { FieldError } from '../../shared/domain/domain-error';
import { codePointLength } from '../../shared/domain/text';
import { LONG_TEXT, MAX_ID, SHORT_TEXT, isWellFormedText, validateBody } from '../../shared/http/validation';
import { LeadRequestValidator } from '../application/lead-import.ports';
import {
  ID_FIELDS,
  LEAD_AGE_MAX,
  LONG_TEXT_FIELDS,
  LeadDetails,
  OPTIONAL_TEXT_FIELDS,
  REQUIRED_TEXT_FIELDS,
} from '../domain/lead-details';
import { LeadBody } from './lead.dtos';

const hasOwn = (body: object, field: string) => Object.prototype.hasOwnProperty.call(body, field);

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && codePointLength(value) <= max && isWellFormedText(value);
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

const absent = (value: unknown) => value === null || value === undefined;

/**
 * The details of a body that LeadBody's decorators certainly accept, checked with the same
 * predicates (class-validator's isEmail, code points, no unpaired surrogate) in plain code; null
 * when any field is in doubt. Only a shortcut: class-validator's validateSync costs about 50 µs a
 * body, which alone would take most of a minute for a million rows.
 */
function acceptedAsIs(body: Record<string, unknown>): Partial<LeadDetails> | null {
  const details: Record<string, unknown> = {};
  for (const field of REQUIRED_TEXT_FIELDS) {
    const value = hasOwn(body, field) ? body[field] : undefined;
    if (!isText(value, SHORT_TEXT) || value.trim() === '') return null;
    details[field] = value;
  }
  if (!isEmail(details.emailAddress, {})) return null;
  const optional = (field: string, accepts: (value: unknown) => boolean): boolean => {
    if (!hasOwn(body, field)) return true;
    const value = body[field];
    if (!absent(value) && !accepts(value)) return false;
    details[field] = value;
    return true;
  };
  for (const field of OPTIONAL_TEXT_FIELDS) if (!optional(field, (v) => isText(v, SHORT_TEXT))) return null;
  for (const field of LONG_TEXT_FIELDS) if (!optional(field, (v) => isText(v, LONG_TEXT))) return null;
  for (const field of ID_FIELDS) if (!optional(field, (v) => isIntegerIn(v, 1, MAX_ID))) return null;
  if (!optional('leadAge', (v) => isIntegerIn(v, 0, LEAD_AGE_MAX))) return null;
  return details as Partial<LeadDetails>;
}

/**
 * POST leads' validation of a body (LeadBody through validateBody) for callers that are not HTTP
 * requests (the bulk import, X13). A body the shortcut above accepts is answered at once; any
 * other goes through validateBody itself, so errors are worded and ordered exactly as the API's.
 * lead-request.validator.spec.ts checks that both paths agree on every kind of body.
 */
@Injectable()
export class ClassValidatorLeadRequestValidator extends LeadRequestValidator {
  validate(body: Record<string, unknown>): { details: Partial<LeadDetails>; errors: FieldError[] } {
    const accepted = acceptedAsIs(body);
    if (accepted) return { details: accepted, errors: [] };
    const { value, errors } = validateBody(LeadBody, body);
    return { details: { ...value }, errors };
  }
}
