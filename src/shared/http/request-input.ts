import { ExecutionContext, Injectable, PipeTransform, Type, createParamDecorator } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
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

/**
 * A check of a request body that needs more than its shape (the vendor's configured lead options,
 * D15). It returns the offending fields rather than throwing, so they are listed together with every
 * other field error of the request (D18). Checks are providers, resolved from the controller's module.
 */
export abstract class InputCheck<B = unknown> {
  abstract check(vendorId: number, body: B): Promise<FieldError[]>;
}

export interface InputSpec<P extends string, Q, B> {
  /** path ids, each a positive integer (D12, D39) */
  params?: readonly P[];
  /** reads the query string; the reader collects every error */
  query?: (reader: QueryReader) => Q;
  body?: BodySpec<B>;
  /** further checks of the body, run in the same validation pass */
  checks?: Type<InputCheck<B>>[];
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

/** What the parameter decorator hands to the validation pipe: the input and every error so far. */
interface PendingInput<P extends string, Q, B> {
  input: Input<P, Q, B>;
  errors: FieldError[];
  spec: InputSpec<P, Q, B>;
  vendorId: number | undefined;
}

/**
 * Reads a request in the order of D37: body syntax first (INVALID_REQUEST is thrown at once), then
 * path ids, query parameters and body fields, whose errors are collected, not thrown.
 */
function readInput<P extends string, Q, B>(
  request: FastifyRequest,
  spec: InputSpec<P, Q, B>,
): PendingInput<P, Q, B> {
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
  return { input: { params, query, body: body as B }, errors, spec, vendorId: request.vendorId };
}

/**
 * The validation pipe of every operation: runs the spec's body checks, then answers one
 * VALIDATION_FAILED listing every offending field (D18), or hands the handler its typed input.
 */
@Injectable()
export class InputValidationPipe implements PipeTransform {
  constructor(private readonly moduleRef: ModuleRef) {}

  async transform<P extends string, Q, B>(pending: PendingInput<P, Q, B>): Promise<Input<P, Q, B>> {
    const { input, spec, vendorId } = pending;
    const errors = [...pending.errors];
    if (input.body !== undefined && vendorId !== undefined) {
      for (const type of spec.checks ?? []) {
        const found = await this.moduleRef.get(type, { strict: false }).check(vendorId, input.body);
        // a field already refused for its shape is not reported twice
        errors.push(...found.filter((e) => !errors.some((known) => known.field === e.field)));
      }
    }
    if (errors.length > 0) throw new ValidationError(orderLike(errors, spec));
    return input;
  }
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
    )(spec, InputValidationPipe)(target, propertyKey, index);
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
