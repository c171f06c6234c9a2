import type { SchemaObject } from '@nestjs/swagger';
import type { Type } from '@nestjs/common';
import { FieldError } from '../domain/domain-error';
import { QueryReader } from './query-reader';
import { MAX_ID, SHORT_TEXT } from './validation';

/**
 * Path and query parameters are declared as classes, one decorated property per parameter, like
 * bodies. The decorator records how the parameter is read (the rules of D12, D33, D39, applied by
 * QueryReader, which collects every error) and how the OpenAPI document describes it; `ValidInput`
 * uses both, so the reader and the document come from one declaration.
 */
export interface ParameterSpec {
  /** the property, which is also the parameter's name on the wire */
  name: string;
  in: 'path' | 'query';
  schema: SchemaObject;
  description: string;
  read: (reader: QueryReader, name: string) => unknown;
}

const PARAMETERS = Symbol('parameters');

function parameter(spec: Omit<ParameterSpec, 'name'>): PropertyDecorator {
  return (target, key) => {
    const inherited = (Reflect.getMetadata(PARAMETERS, target) as ParameterSpec[] | undefined) ?? [];
    Reflect.defineMetadata(PARAMETERS, [...inherited, { ...spec, name: String(key) }], target);
  };
}

/** The parameters a path or query class declares, in declaration order. */
export function parametersOf(type: Type<unknown>): ParameterSpec[] {
  return (Reflect.getMetadata(PARAMETERS, type.prototype as object) as ParameterSpec[] | undefined) ?? [];
}

const DIGITS = /^[0-9]+$/;

/** D12, D39: plain decimal digits, at least 1, at most 2^53 - 1. */
export function parsePathId(raw: string | undefined): number | undefined {
  if (raw === undefined || !DIGITS.test(raw)) return undefined;
  const value = Number(raw);
  return value >= 1 && value <= Number.MAX_SAFE_INTEGER ? value : undefined;
}

/** A path id (D12, D39): a positive integer written in plain digits; anything else is VALIDATION_FAILED. */
export function PathId(description: string): PropertyDecorator {
  return parameter({
    in: 'path',
    schema: { type: 'integer', minimum: 1, maximum: MAX_ID, example: 1 },
    description: `${description}; a positive integer in plain digits (D12, D39).`,
    read: () => undefined, // path values are read by readParameters below
  });
}

/** A non-repeatable integer with a default (D39). */
export function QueryInteger(options: {
  default: number;
  min: number;
  max?: number;
  description: string;
}): PropertyDecorator {
  return parameter({
    in: 'query',
    schema: {
      type: 'integer',
      default: options.default,
      minimum: options.min,
      maximum: options.max ?? MAX_ID,
    },
    description: options.description,
    read: (reader, name) => reader.integer(name, options),
  });
}

/** A repeatable list of ids (`?status=3&status=7`, D33). */
export function QueryIdList(description: string): PropertyDecorator {
  return parameter({
    in: 'query',
    schema: { type: 'array', items: { type: 'integer', minimum: 0, maximum: MAX_ID } },
    description: `${description} Repeat the parameter for several values; any of them matches (D33).`,
    read: (reader, name) => reader.integerList(name),
  });
}

/**
 * A value out of a list. `fallback`: an unknown value silently means the default (the sortBy
 * parameters of the contract); otherwise an unknown value is VALIDATION_FAILED (D39).
 */
export function QueryEnum<T extends string>(
  values: readonly T[],
  options: { description: string; default?: T; caseInsensitive?: boolean; fallback?: boolean },
): PropertyDecorator {
  const { description, caseInsensitive = false, fallback = false } = options;
  const read = (reader: QueryReader, name: string): T | undefined => {
    if (fallback && options.default !== undefined) return reader.enumOrDefault(name, values, options.default);
    return reader.enumOf(name, values, { caseInsensitive }) ?? options.default;
  };
  const rules = [
    caseInsensitive ? 'Case-insensitive.' : 'Exact case.',
    fallback ? 'An unknown value falls back to the default without error.' : '',
  ];
  return parameter({
    in: 'query',
    schema: {
      type: 'string',
      enum: [...values],
      ...(options.default !== undefined ? { default: options.default } : {}),
    },
    description: [description, ...rules].filter(Boolean).join(' '),
    read,
  });
}

/** `true` or `false`, lower case (D39). */
export function QueryBoolean(options: { default: boolean; description: string }): PropertyDecorator {
  return parameter({
    in: 'query',
    schema: { type: 'boolean', default: options.default },
    description: options.description,
    read: (reader, name) => reader.boolean(name, options.default),
  });
}

/** A calendar date `YYYY-MM-DD`, read as the UTC midnight that starts it. */
export function QueryDate(description: string): PropertyDecorator {
  return parameter({
    in: 'query',
    schema: { type: 'string', format: 'date', example: '2026-01-31' },
    description,
    read: (reader, name) => reader.date(name),
  });
}

/** Free text of at most `max` characters; empty means absent. */
export function QueryText(description: string, max = SHORT_TEXT): PropertyDecorator {
  return parameter({
    in: 'query',
    schema: { type: 'string', maxLength: max },
    description,
    read: (reader, name) => {
      const text = reader.text(name, max);
      return text === '' ? undefined : text;
    },
  });
}

/**
 * Reads the path ids and query parameters a class declares, collecting every error (D18). Unknown
 * query parameters are ignored (D39).
 */
export function readParameters<T>(
  type: Type<T>,
  raw: Record<string, unknown>,
  errors: FieldError[],
): T {
  const value = {} as Record<string, unknown>;
  let reader: QueryReader | undefined; // path-only classes (the hot GET by id) need none
  for (const spec of parametersOf(type)) {
    if (spec.in === 'path') {
      const id = parsePathId(raw[spec.name] as string | undefined);
      if (id === undefined) errors.push({ field: spec.name, error: 'must be a positive integer' });
      else value[spec.name] = id;
    } else {
      reader ??= new QueryReader(raw);
      value[spec.name] = spec.read(reader, spec.name);
    }
  }
  if (reader) errors.push(...reader.errors);
  return value as T;
}
