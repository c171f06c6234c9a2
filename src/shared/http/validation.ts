import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { ClassConstructor, Type, plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateBy,
  ValidateNested,
  ValidationError as ClassValidatorError,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  validateSync,
} from 'class-validator';
import { FieldError } from '../domain/domain-error';
import { isDeliverableEmailAddress } from '../domain/email';
import { LONG_TEXT, SHORT_TEXT, codePointLength, isBlank } from '../domain/text';

/** D14, declared once for the edge and the domain (shared/domain/text.ts). */
export { LONG_TEXT, SHORT_TEXT };
export const MAX_ID = Number.MAX_SAFE_INTEGER; // D2, D39

@ValidatorConstraint({ name: 'notBlank' })
class NotBlankConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && !isBlank(value);
  }
  defaultMessage(): string {
    return 'must not be empty or blank';
  }
}

@ValidatorConstraint({ name: 'maxCodePoints' })
class MaxCodePointsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value === 'string' && codePointLength(value) <= (args.constraints[0] as number);
  }
  defaultMessage(args: ValidationArguments): string {
    return `must be at most ${args.constraints[0] as number} characters`;
  }
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isWellFormedText(value: string): boolean {
  return !UNPAIRED_SURROGATE.test(value);
}

/**
 * D14 stores strings exactly as sent; an unpaired UTF-16 surrogate (`"\ud800"`) cannot be stored in
 * UTF-8 as sent, so it is refused instead of being silently replaced.
 */
@ValidatorConstraint({ name: 'wellFormedText' })
class WellFormedTextConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value !== 'string' || isWellFormedText(value);
  }
  defaultMessage(): string {
    return 'must be valid Unicode text (no unpaired surrogate)';
  }
}

/** Every element of a list must be a JSON object; the flattening below names each offender. */
@ValidatorConstraint({ name: 'eachObject' })
class EachObjectConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return Array.isArray(value) && value.every(isPlainObject);
  }
  defaultMessage(): string {
    return 'must be an object';
  }
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isStringOnly = () => IsString({ message: 'must be a string' });
const isString = () => applyDecorators(isStringOnly(), Validate(WellFormedTextConstraint));
// Not class-validator's MaxLength: validator.js leaves variation selectors (U+FE0E, U+FE0F) out of
// its count, so a longer string would pass here and then overflow the column.
const maxLength = (max: number) => Validate(MaxCodePointsConstraint, [max]);
// D13: the one syntax rule for every email field, shared with the bulk import (docs/email-addresses.md).
const email = () =>
  ValidateBy({
    name: 'isEmail',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isDeliverableEmailAddress(value),
      defaultMessage: () => 'must be a well-formed email address',
    },
  });

/**
 * What a field decorator tells the OpenAPI document besides its rules: a description and an example.
 * The rules themselves (type, length, nullability, enum, required) are written into the document by
 * the decorator from the same arguments that drive validation, so the two cannot drift apart.
 */
export interface FieldDoc {
  description?: string;
  example?: unknown;
}

/** The OpenAPI side of a field: `required` decides whether it is listed under `required`. */
function documented(options: ApiPropertyOptions, doc: FieldDoc = {}): PropertyDecorator {
  const { description, example } = doc;
  return ApiProperty({
    ...options,
    ...(description !== undefined ? { description } : {}),
    ...(example !== undefined ? { example } : {}),
  } as ApiPropertyOptions);
}

const NOT_BLANK = '[^\\s\\u0085]'; // at least one character that is not white space (D14, isBlank)

/** Required, a non-blank string of at most `max` code points (D14, D17). */
export function RequiredString(max = SHORT_TEXT, doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'is required' }),
    isString(),
    Validate(NotBlankConstraint),
    maxLength(max),
    documented({ type: 'string', required: true, minLength: 1, maxLength: max, pattern: NOT_BLANK }, doc),
  );
}

/** Optional and nullable string. */
export function OptionalString(max = SHORT_TEXT, doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    isString(),
    maxLength(max),
    documented({ type: 'string', required: false, nullable: true, maxLength: max }, doc),
  );
}

/**
 * `format: email` names RFC 5321's ASCII syntax; the service also accepts letters of any script
 * (docs/email-addresses.md), which the description says so that no client refuses them.
 */
export const EMAIL_RULE =
  'An email address in the subset of docs/email-addresses.md: RFC 5321 syntax without quoted local parts, ' +
  'IP literals or control characters; letters of any script are accepted as well (RFC 6531).';

function emailDescription(description: string | undefined): string {
  return description ? `${description}. ${EMAIL_RULE}` : EMAIL_RULE;
}

/** Required, well-formed email address (D13). */
export function RequiredEmail(doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    RequiredString(SHORT_TEXT, doc),
    email(),
    documented(
      { type: 'string', format: 'email', required: true, minLength: 1, maxLength: SHORT_TEXT },
      { ...doc, description: emailDescription(doc?.description) },
    ),
  );
}

/**
 * For PATCH bodies (D29): the field may be omitted, but when present it must satisfy the rules of a
 * required field, so an explicit null is VALIDATION_FAILED.
 */
export function PresentString(max = SHORT_TEXT, doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined),
    IsDefined({ message: 'must not be null' }),
    isString(),
    Validate(NotBlankConstraint),
    maxLength(max),
    documented({ type: 'string', required: false, minLength: 1, maxLength: max, pattern: NOT_BLANK }, doc),
  );
}

export function PresentEmail(doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    PresentString(SHORT_TEXT, doc),
    ValidateIf((_object, value) => value !== undefined),
    email(),
    documented(
      { type: 'string', format: 'email', required: false, minLength: 1, maxLength: SHORT_TEXT },
      { ...doc, description: emailDescription(doc?.description) },
    ),
  );
}

/** Optional, nullable positive integer id. */
export function OptionalId(doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsInt({ message: 'must be an integer id' }),
    Min(1, { message: 'must be a positive integer id' }),
    Max(MAX_ID, { message: 'must be at most 9007199254740991' }),
    documented({ type: 'integer', required: false, nullable: true, minimum: 1, maximum: MAX_ID }, doc),
  );
}

/** Optional, nullable integer in a range. */
export function OptionalInteger(min: number, max: number, doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsInt({ message: 'must be an integer' }),
    Min(min, { message: `must be at least ${min}` }),
    Max(max, { message: `must be at most ${max}` }),
    documented({ type: 'integer', required: false, nullable: true, minimum: min, maximum: max }, doc),
  );
}

/** Optional, nullable value out of a fixed list, exact case (D16, D39). */
export function OptionalEnum(values: readonly string[], doc?: FieldDoc): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsIn(values as string[], { message: `must be one of ${values.join(', ')}` }),
    documented({ type: 'string', required: false, nullable: true, enum: [...values, null] }, doc),
  );
}

/**
 * A list of objects of `type` holding `min` to `max` entries (D22), each element validated as that
 * type and named `users[1].emailAddress` in errors (D13). A non-object element is `users[1]`.
 */
export function ListOf(
  type: ClassConstructor<object>,
  options: { min: number; max: number; sizeMessage: string; required: boolean },
  doc?: FieldDoc,
): PropertyDecorator {
  return applyDecorators(
    documented(
      {
        type: () => [type],
        required: options.required,
        ...(options.required ? {} : { nullable: true }),
        minItems: options.min,
        maxItems: options.max,
      },
      doc,
    ),
    options.required ? IsDefined({ message: 'is required' }) : IsOptional(),
    IsArray({ message: 'must be a list' }),
    ArrayMinSize(options.min, { message: options.sizeMessage }),
    ArrayMaxSize(options.max, { message: options.sizeMessage }),
    Validate(EachObjectConstraint),
    ValidateNested({ each: true }),
    Type(() => type),
  );
}

function pathOf(parent: string, property: string, parentIsArray: boolean): string {
  if (parentIsArray) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

function flatten(
  errors: ClassValidatorError[],
  parent: string,
  parentIsArray: boolean,
  out: FieldError[],
): void {
  for (const error of errors) {
    const field = pathOf(parent, error.property, parentIsArray);
    // Constraints are recorded in the order the decorators declare them: the first is the one to report.
    const [constraint, message] = Object.entries(error.constraints ?? {})[0] ?? [];
    const children = error.children ?? [];
    if (constraint === 'eachObject' && Array.isArray(error.value)) {
      // in list order: a non-object element is named itself, an object element by its fields (D18)
      (error.value as unknown[]).forEach((element, index) => {
        if (!isPlainObject(element)) out.push({ field: `${field}[${index}]`, error: 'must be an object' });
        else
          flatten(
            children.filter((child) => child.property === String(index)),
            field,
            true,
            out,
          );
      });
    } else if (message !== undefined) {
      // the value itself is wrong (not a list, not an object...): what is inside it is not reported
      out.push({ field, error: constraint === 'nestedValidation' ? 'must be an object' : message });
    } else if (children.length > 0) {
      flatten(children, field, Array.isArray(error.value), out);
    }
  }
}

/**
 * Validates a JSON object against a DTO class without any type coercion (D17): unknown and
 * read-only fields are dropped (D5), every failing field is listed (D18), one error per field, with
 * list elements named like `users[1].emailAddress` (D13).
 */
export function validateBody<T extends object>(
  type: ClassConstructor<T>,
  body: object,
): { value: T; errors: FieldError[] } {
  const value = plainToInstance(type, body, { enableImplicitConversion: false, exposeDefaultValues: false });
  const found = validateSync(value, {
    whitelist: true,
    forbidNonWhitelisted: false,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
  });
  const errors: FieldError[] = [];
  flatten(found, '', false, errors);
  return { value, errors };
}
