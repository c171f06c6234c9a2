import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { EMAIL_RULE, MAX_ID } from './validation';

/**
 * Field decorators of response classes, for the OpenAPI document. Every field of a response is
 * always present, null when it has no value (D4), so each one is `required`; `nullable` says
 * whether it may be null. Datetimes are ISO 8601 UTC with milliseconds (D1).
 */
interface Doc {
  description?: string;
  example?: unknown;
}

export const IdField = (doc: Doc = {}, nullable = false): PropertyDecorator =>
  ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_ID, nullable, example: 1, ...doc });

export const TextField = (doc: Doc = {}, nullable = false): PropertyDecorator =>
  ApiProperty({ type: 'string', nullable, ...(nullable ? { example: null } : {}), ...doc });

/** As stored: an address of the subset of docs/email-addresses.md (letters of any script included). */
export const EmailField = (doc: Doc = {}): PropertyDecorator =>
  ApiProperty({ type: 'string', format: 'email', ...doc, description: doc.description ?? EMAIL_RULE });

export const IntegerField = (doc: Doc = {}, nullable = false): PropertyDecorator =>
  ApiProperty({ type: 'integer', nullable, ...doc });

export const BooleanField = (doc: Doc = {}): PropertyDecorator => ApiProperty({ type: 'boolean', ...doc });

export const DateTimeField = (doc: Doc = {}, nullable = false): PropertyDecorator =>
  ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable,
    example: nullable ? null : '2026-01-31T09:30:00.000Z',
    ...doc,
  });

export const EnumField = (values: readonly string[], doc: Doc = {}, nullable = false): PropertyDecorator =>
  ApiProperty({
    type: 'string',
    enum: nullable ? [...values, null] : [...values],
    nullable,
    example: values[0],
    ...doc,
  });

/** A list of values out of an enum (never null; empty when there are none). */
export const EnumListField = (values: readonly string[], doc: Doc = {}): PropertyDecorator =>
  ApiProperty({ type: 'string', isArray: true, enum: [...values], ...doc });

export const ObjectField = (type: Type<unknown>, doc: Doc = {}): PropertyDecorator =>
  ApiProperty({ type, ...doc });

export const ListField = (type: Type<unknown>, doc: Doc & { required?: boolean } = {}, nullable = false): PropertyDecorator =>
  ApiProperty({ type: [type], nullable, ...doc });
