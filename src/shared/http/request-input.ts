import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';
import type { ClassConstructor } from 'class-transformer';
import type { FastifyRequest } from 'fastify';
import { FieldError, ValidationError } from '../domain/domain-error';
import { EdgeError } from './error-response';
import { MalformedBody } from './json-body';
import { QueryReader } from './query-reader';
import { validateBody } from './validation';

export interface BodySpec<B> {
  type: ClassConstructor<B>;
  /** optional: an empty body is accepted and read as undefined (D38: reject without a comment) */
  optional?: boolean;
}

export interface InputSpec<P extends string, Q, B> {
  /** path ids, each a positive integer (D12, D39) */
  params?: readonly P[];
  /** reads the query string; the reader collects every error */
  query?: (reader: QueryReader) => Q;
  body?: BodySpec<B>;
}

export interface Input<P extends string, Q = undefined, B = undefined> {
  params: Record<P, number>;
  query: Q;
  body: B;
}

const DIGITS = /^[0-9]+$/;

/** D12, D39: plain decimal digits, at least 1, at most 2^53 - 1. */
export function parsePathId(raw: string | undefined): number | undefined {
  if (raw === undefined || !DIGITS.test(raw)) return undefined;
  const value = Number(raw);
  return value >= 1 && value <= Number.MAX_SAFE_INTEGER ? value : undefined;
}

function readBody<B>(spec: BodySpec<B>, raw: unknown, errors: FieldError[]): B | undefined {
  if (raw instanceof MalformedBody) throw EdgeError.invalidRequest(raw.reason);
  if (raw === undefined) {
    if (spec.optional) return undefined;
    throw EdgeError.invalidRequest('a JSON object body is required');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw EdgeError.invalidRequest('the body must be a JSON object');
  }
  const { value, errors: bodyErrors } = validateBody(spec.type as ClassConstructor<object>, raw);
  errors.push(...bodyErrors);
  return value as B;
}

/**
 * Reads and validates a request in the order of D37: body syntax (INVALID_REQUEST) first, then path
 * ids, query parameters and body fields together, every failure listed in one VALIDATION_FAILED (D18).
 */
export function readInput<P extends string, Q, B>(
  request: FastifyRequest,
  spec: InputSpec<P, Q, B>,
): Input<P, Q, B> {
  const errors: FieldError[] = [];
  const rawBody = (request as { body?: unknown }).body;
  if (spec.body && rawBody instanceof MalformedBody) throw EdgeError.invalidRequest(rawBody.reason);
  const pathParams = (request.params ?? {}) as Record<string, string | undefined>;
  const params = {} as Record<P, number>;
  for (const name of spec.params ?? []) {
    const id = parsePathId(pathParams[name]);
    if (id === undefined) errors.push({ field: name, error: 'must be a positive integer' });
    else params[name] = id;
  }
  const body = spec.body ? readBody(spec.body, rawBody, errors) : undefined;
  let query = undefined as Q;
  if (spec.query) {
    const reader = new QueryReader((request.query ?? {}) as Record<string, unknown>);
    query = spec.query(reader);
    errors.push(...reader.errors);
  }
  if (errors.length > 0) throw new ValidationError(orderLike(errors, spec));
  return { params, query, body: body as B };
}

/** Path ids first, then query, then body: the order a reader of the request meets them. */
function orderLike(errors: FieldError[], spec: InputSpec<string, unknown, unknown>): FieldError[] {
  const params = new Set<string>(spec.params ?? []);
  return [...errors.filter((e) => params.has(e.field)), ...errors.filter((e) => !params.has(e.field))];
}

/**
 * Parameter decorator: `@ValidInput({ params: ['leadId'], body: { type: ReplaceLeadBody } }) input`.
 * The handler receives typed, validated input or never runs.
 */
export const ValidInput =
  <P extends string, Q = undefined, B = undefined>(spec: InputSpec<P, Q, B>): ParameterDecorator =>
  (target, propertyKey, index) => {
    createParamDecorator((data: InputSpec<P, Q, B>, context: ExecutionContext) =>
      readInput(context.switchToHttp().getRequest<FastifyRequest>(), data),
    )(spec)(target, propertyKey, index);
    // The same spec describes the operation in the OpenAPI document (served on the management port).
    const descriptor =
      propertyKey === undefined ? undefined : Object.getOwnPropertyDescriptor(target, propertyKey);
    if (!descriptor) return;
    for (const name of spec.params ?? []) {
      ApiParam({ name, type: 'integer', description: 'positive integer id' })(
        target,
        propertyKey!,
        descriptor,
      );
    }
    if (spec.body) {
      ApiBody({ type: spec.body.type, required: !spec.body.optional })(target, propertyKey!, descriptor);
    }
  };
