import { ExecutionContext, Injectable, PipeTransform, Type, createParamDecorator } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { ClassConstructor } from 'class-transformer';
import type { FastifyRequest } from 'fastify';
import { FieldError, ValidationError } from '../domain/domain-error';
import { EdgeError } from './error-response';
import { MalformedBody } from './json-body';
import { addRouteConfig } from './route-config';
import { ParameterSpec, parametersOf, readParameters } from './query-fields';
import { validateBody } from './validation';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Errors of request headers found by a hook before the route (X1: `Idempotency-Key`), reported
     * first in the route's VALIDATION_FAILED together with every field error (D18), and only when
     * the body's syntax passed (D37).
     */
    headerErrors?: FieldError[];
  }
}

export interface BodySpec<B> {
  type: ClassConstructor<B>;
  /** optional: an empty body is accepted and read as undefined (D38: reject without a comment) */
  optional?: boolean;
  /**
   * A shortcut for the bodies that certainly pass: the value `validateBody(type, body)` would give,
   * or null when in doubt, and the body then goes through `validateBody` itself. It must agree with
   * the decorators on every body (a spec has to show it): class-validator costs about a fifth of a
   * create's CPU (docs/performance.md, "A lead body that certainly passes skips class-validator").
   */
  acceptedAsIs?: (body: Record<string, unknown>) => B | null;
}

/**
 * A check of a request body that needs more than its shape (the vendor's configured lead options,
 * D15). It returns the offending fields rather than throwing, so they are listed together with every
 * other field error of the request (D18). Checks are providers, resolved from the controller's module.
 */
export abstract class InputCheck<B = unknown> {
  abstract check(vendorId: number, body: B): Promise<FieldError[]>;
}

export interface InputSpec<P, Q, B> {
  /** path ids: a class whose properties are declared with `@PathId` (D12, D39) */
  params?: Type<P>;
  /** query parameters: a class whose properties are declared with `@Query*` (D33, D39) */
  query?: Type<Q>;
  body?: BodySpec<B>;
  /** further checks of the body, run in the same validation pass */
  checks?: Type<InputCheck<B>>[];
}

export interface Input<P = undefined, Q = undefined, B = undefined> {
  params: P;
  query: Q;
  body: B;
}

/**
 * How a route treats its body (D38), kept in its fastify route config as `body` by `@ValidInput` so
 * that hooks running before the route can apply D37's step 3 as the route will (`bodySyntaxProblem`).
 */
export type BodyMode = 'required' | 'optional' | 'ignored';

export interface BodyRouteConfig {
  body?: BodyMode;
}

function bodyModeOf(spec: BodySpec<unknown> | undefined): BodyMode {
  if (!spec) return 'ignored';
  return spec.optional ? 'optional' : 'required';
}

/**
 * D37 step 3 for a route whose body is `mode` (D38): why the body is 400 INVALID_REQUEST, or null
 * when its syntax passes. A route that declares no body ignores whatever it is sent.
 */
export function bodySyntaxProblem(mode: BodyMode, raw: unknown): string | null {
  if (mode === 'ignored') return null;
  if (raw instanceof MalformedBody) return raw.reason;
  if (raw === undefined) return mode === 'optional' ? null : 'a JSON object body is required';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'the body must be a JSON object';
  return null;
}

function readBody<B>(spec: BodySpec<B>, raw: unknown, errors: FieldError[]): B | undefined {
  if (raw === undefined) return undefined; // optional: bodySyntaxProblem refused it otherwise
  const object = raw as Record<string, unknown>; // bodySyntaxProblem let only an object through
  const accepted = spec.acceptedAsIs?.(object);
  if (accepted) return accepted;
  const { value, errors: bodyErrors } = validateBody(spec.type as ClassConstructor<object>, object);
  errors.push(...bodyErrors);
  return value as B;
}

/** What the parameter decorator hands to the validation pipe: the input and every error so far. */
interface PendingInput<P, Q, B> {
  input: Input<P, Q, B>;
  errors: FieldError[];
  spec: InputSpec<P, Q, B>;
  vendorId: number | undefined;
  headerErrors: FieldError[] | undefined;
}

/**
 * Reads a request in the order of D37: body syntax first (INVALID_REQUEST is thrown at once), then
 * path ids, query parameters and body fields, whose errors are collected, not thrown.
 */
function readInput<P, Q, B>(request: FastifyRequest, spec: InputSpec<P, Q, B>): PendingInput<P, Q, B> {
  const errors: FieldError[] = [];
  const rawBody = (request as { body?: unknown }).body;
  const problem = bodySyntaxProblem(bodyModeOf(spec.body as BodySpec<unknown> | undefined), rawBody);
  if (problem !== null) throw EdgeError.invalidRequest(problem);
  const params = spec.params
    ? readParameters(spec.params, (request.params ?? {}) as Record<string, unknown>, errors)
    : (undefined as P);
  const body = spec.body ? readBody(spec.body, rawBody, errors) : undefined;
  const query = spec.query
    ? readParameters(spec.query, (request.query ?? {}) as Record<string, unknown>, errors)
    : (undefined as Q);
  return {
    input: { params, query, body: body as B },
    errors,
    spec,
    vendorId: request.vendorId,
    headerErrors: request.headerErrors,
  };
}

/**
 * The validation pipe of every operation: runs the spec's body checks, then answers one
 * VALIDATION_FAILED listing every offending field (D18), or hands the handler its typed input.
 */
@Injectable()
export class InputValidationPipe implements PipeTransform {
  constructor(private readonly moduleRef: ModuleRef) {}

  async transform<P, Q, B>(pending: PendingInput<P, Q, B>): Promise<Input<P, Q, B>> {
    const { input, spec, vendorId } = pending;
    const errors = [...pending.errors];
    if (input.body !== undefined && vendorId !== undefined) {
      for (const type of spec.checks ?? []) {
        const found = await this.moduleRef.get(type, { strict: false }).check(vendorId, input.body);
        // a field already refused for its shape is not reported twice
        errors.push(...found.filter((e) => !errors.some((known) => known.field === e.field)));
      }
    }
    const headerErrors = pending.headerErrors ?? [];
    if (errors.length > 0 || headerErrors.length > 0) {
      throw new ValidationError([...headerErrors, ...orderLike(errors, spec)]);
    }
    return input;
  }
}

/** Headers first (added by the caller), then path ids, query, body: the order a reader of the request meets them. */
function orderLike(errors: FieldError[], spec: InputSpec<unknown, unknown, unknown>): FieldError[] {
  const params = new Set<string>(spec.params ? parametersOf(spec.params).map((p) => p.name) : []);
  return [...errors.filter((e) => params.has(e.field)), ...errors.filter((e) => !params.has(e.field))];
}

/** Records what a handler reads, for `@Operation` (which documents the errors that input can cause). */
export const INPUT_SPEC = Symbol('input-spec');

export function inputSpecOf(
  target: object,
  propertyKey: string | symbol,
): InputSpec<unknown, unknown, unknown> | undefined {
  return Reflect.getMetadata(INPUT_SPEC, target, propertyKey) as
    InputSpec<unknown, unknown, unknown> | undefined;
}

/**
 * Parameter decorator: `@ValidInput({ params: LeadPath, body: { type: LeadBody } }) input`.
 * The handler receives typed, validated input or never runs. The same classes describe the
 * operation's parameters and body in the OpenAPI document.
 */
export const ValidInput =
  <P = undefined, Q = undefined, B = undefined>(spec: InputSpec<P, Q, B>): ParameterDecorator =>
  (target, propertyKey, index) => {
    createParamDecorator((data: InputSpec<P, Q, B>, context: ExecutionContext) =>
      readInput(context.switchToHttp().getRequest<FastifyRequest>(), data),
    )(spec, InputValidationPipe)(target, propertyKey, index);
    if (propertyKey === undefined) return;
    Reflect.defineMetadata(INPUT_SPEC, spec, target, propertyKey);
    const descriptor = Object.getOwnPropertyDescriptor(target, propertyKey);
    if (!descriptor) return;
    addRouteConfig(descriptor.value as object, {
      body: bodyModeOf(spec.body as BodySpec<unknown> | undefined),
    } satisfies BodyRouteConfig);
    const parameters = [
      ...(spec.params ? parametersOf(spec.params) : []),
      ...(spec.query ? parametersOf(spec.query) : []),
    ];
    for (const parameter of parameters) {
      ApiParamOrQuery(parameter)(target, propertyKey, descriptor);
    }
    if (spec.body) {
      ApiBody({ type: spec.body.type, required: !spec.body.optional })(target, propertyKey, descriptor);
    }
  };

function ApiParamOrQuery(parameter: ParameterSpec): MethodDecorator {
  const common = {
    name: parameter.name,
    description: parameter.description,
    schema: parameter.schema,
  };
  if (parameter.in === 'path') return ApiParam({ ...common, required: true });
  const repeatable = parameter.schema.type === 'array';
  return ApiQuery({ ...common, required: false, ...(repeatable ? { style: 'form', explode: true } : {}) });
}
