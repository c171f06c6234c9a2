import { RequestMethod, Type, applyDecorators } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import {
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptions,
  ApiResponse,
  ApiSchema,
  getSchemaPath,
} from '@nestjs/swagger';
import type {
  ExampleObject,
  SchemaObject,
  ReferenceObject,
} from '@nestjs/swagger';
import { Success, SuccessCode } from './envelope';
import { AuthErrorCode, ErrorCode } from './error-response';
import { inputSpecOf } from './request-input';

/** `errors[]` of the standard error shape: one entry per offending field (D18). */
@ApiSchema({ name: 'FieldError' })
export class FieldErrorSchema {
  @ApiProperty({ description: 'the field, as named in the request (`users[1].emailAddress`)', example: 'emailAddress' })
  field!: string;

  @ApiProperty({ description: 'what is wrong with it', example: 'must be a well-formed email address' })
  error!: string;
}

const ERROR_CODES: ErrorCode[] = [
  'VALIDATION_FAILED',
  'INVALID_REQUEST',
  'DUPLICATE_ENTRY',
  'RESOURCE_NOT_FOUND',
  'INVALID_STATE_TRANSITION',
  'INTERNAL_SERVER_ERROR',
  'SERVICE_UNAVAILABLE',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'RATE_LIMITED',
];
const AUTH_CODES: AuthErrorCode[] = ['API_KEY_MISSING', 'INVALID_API_KEY', 'UNKNOWN_API_NAMESPACE', 'RATE_LIMITED'];

/** The standard error shape (every error but authentication). */
@ApiSchema({ name: 'Error' })
export class StandardErrorSchema {
  @ApiProperty({ enum: ERROR_CODES, description: 'the error code' })
  message!: ErrorCode;

  @ApiProperty({ type: 'integer', description: 'the HTTP status, repeated', example: 400 })
  status!: number;

  @ApiProperty({ type: 'boolean', enum: [false] })
  success!: false;

  @ApiProperty({ type: () => [FieldErrorSchema], description: 'every offending field (D18); empty when none is to blame' })
  errors!: FieldErrorSchema[];

  @ApiProperty({ type: 'string', format: 'date-time', description: 'time of the response (D1)' })
  timestamp!: string;
}

/** The authentication error shape (D7, D8). */
@ApiSchema({ name: 'AuthError' })
export class AuthErrorSchema {
  @ApiProperty({ type: 'boolean', enum: [false] })
  success!: false;

  @ApiProperty({ enum: AUTH_CODES, description: 'why the request was refused' })
  message!: AuthErrorCode;

  @ApiProperty({ type: 'object', nullable: true, enum: [null], description: 'always null' } as ApiPropertyOptions)
  data!: null;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'time of the response (D1)' })
  timestamp!: string;
}

/** What `data` holds: one object, a list of them, a page of them, or null. */
export type DataShape = Type<unknown> | [Type<unknown>] | { page: Type<unknown> } | null;

/** Errors an operation can give because of its business rules; input errors are added from `@ValidInput`. */
export type BusinessError = 'DUPLICATE_ENTRY' | 'RESOURCE_NOT_FOUND' | 'INVALID_STATE_TRANSITION';

export interface OperationSpec {
  /** the operationId integrators' generated clients name their method after (`createLead`) */
  id: string;
  summary: string;
  /** the operation's rules, in Markdown */
  description: string;
  /** `message` of the success envelope (D3); null for operations without a success code */
  message?: SuccessCode | null;
  data: DataShape;
  errors?: BusinessError[];
}

const TIMESTAMP = '2026-01-31T09:30:00.000Z';

function standardExample(status: number, message: ErrorCode, errors: { field: string; error: string }[] = []) {
  return { message, status, success: false, errors, timestamp: TIMESTAMP };
}

const EXAMPLES: Record<ErrorCode, ExampleObject> = {
  VALIDATION_FAILED: {
    summary: 'fields that break the rules, every one of them (D18)',
    value: standardExample(400, 'VALIDATION_FAILED', [
      { field: 'emailAddress', error: 'must be a well-formed email address' },
      { field: 'leadAge', error: 'must be an integer' },
    ]),
  },
  INVALID_REQUEST: {
    summary: 'a body that is not a JSON object, or not sent as application/json (D6, D38)',
    value: standardExample(400, 'INVALID_REQUEST'),
  },
  DUPLICATE_ENTRY: {
    summary: 'the email address is taken',
    value: standardExample(400, 'DUPLICATE_ENTRY', [{ field: 'emailAddress', error: 'already exists' }]),
  },
  RESOURCE_NOT_FOUND: {
    summary: 'no such resource for the caller’s vendor (D25, D27)',
    value: standardExample(404, 'RESOURCE_NOT_FOUND'),
  },
  INVALID_STATE_TRANSITION: {
    summary: 'the lead’s approval status does not allow this (D30)',
    value: standardExample(409, 'INVALID_STATE_TRANSITION'),
  },
  INTERNAL_SERVER_ERROR: {
    summary: 'a fault of the service; nothing was committed',
    value: standardExample(500, 'INTERNAL_SERVER_ERROR'),
  },
  SERVICE_UNAVAILABLE: {
    summary: 'the database did not answer in time; nothing was committed, retry after Retry-After',
    value: standardExample(503, 'SERVICE_UNAVAILABLE'),
  },
  IDEMPOTENCY_KEY_REUSED: {
    summary: 'the Idempotency-Key was used, within 24 hours, for a request with another method, path or body (X4)',
    value: standardExample(422, 'IDEMPOTENCY_KEY_REUSED'),
  },
  IDEMPOTENCY_KEY_IN_USE: {
    summary: 'a request with this Idempotency-Key is still running; nothing ran, retry later (X4)',
    value: standardExample(409, 'IDEMPOTENCY_KEY_IN_USE'),
  },
  RATE_LIMITED: {
    summary: 'the vendor’s requests per minute are used up; nothing ran (X6)',
    value: standardExample(429, 'RATE_LIMITED'),
  },
};

const INTEGER_HEADER = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** X6: on every authenticated answer while the per-vendor limit is on (RATE_LIMIT_PER_MINUTE > 0). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': INTEGER_HEADER('requests the vendor may make per minute (X6)'),
  'RateLimit-Remaining': INTEGER_HEADER('requests left in the current window'),
  'RateLimit-Reset': INTEGER_HEADER('seconds until the window frees capacity'),
};

/** X6, X8: 429 in the standard shape (per vendor) or the authentication shape (failed keys per address). */
function rateLimitedResponse() {
  return ApiResponse({
    status: 429,
    description:
      'Too many requests; nothing ran. Retry after `Retry-After` seconds. Per vendor (X6, standard shape), or, ' +
      'before any key was accepted, too many failed authentications from this address (X8, authentication shape).',
    headers: { 'Retry-After': INTEGER_HEADER('seconds to wait before retrying'), ...RATE_LIMIT_HEADERS },
    content: {
      'application/json': {
        schema: { oneOf: [{ $ref: getSchemaPath(StandardErrorSchema) }, { $ref: getSchemaPath(AuthErrorSchema) }] },
        examples: {
          RATE_LIMITED: EXAMPLES.RATE_LIMITED,
          AUTH_RATE_LIMITED: {
            summary: 'too many failed authentications from this address (X8)',
            value: { success: false, message: 'RATE_LIMITED', data: null, timestamp: TIMESTAMP },
          },
        },
      },
    },
  } as Parameters<typeof ApiResponse>[0]);
}

const ERROR_REF: ReferenceObject = { $ref: getSchemaPath(StandardErrorSchema) };

function errorResponse(status: number, description: string, codes: ErrorCode[], headers?: object) {
  // the same code can come with several statuses (INVALID_REQUEST: 400, 408, 413)
  const examples = Object.fromEntries(
    codes.map((code) => [code, { ...EXAMPLES[code], value: { ...(EXAMPLES[code].value as object), status } }]),
  );
  return ApiResponse({
    status,
    description,
    content: { 'application/json': { schema: ERROR_REF, examples } },
    ...(headers ? { headers } : {}),
  } as Parameters<typeof ApiResponse>[0]);
}

function authResponse() {
  const example = (message: AuthErrorCode) => ({ success: false, message, data: null, timestamp: TIMESTAMP });
  return ApiResponse({
    status: 401,
    description: 'The X-API-KEY header is missing, or the key is unknown or revoked (D7, D8).',
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(AuthErrorSchema) },
        examples: {
          API_KEY_MISSING: { summary: 'no X-API-KEY header', value: example('API_KEY_MISSING') },
          INVALID_API_KEY: { summary: 'unknown or revoked key', value: example('INVALID_API_KEY') },
        },
      },
    },
  });
}

function dataSchema(shape: DataShape): SchemaObject | ReferenceObject {
  if (shape === null) return { type: 'object', nullable: true, enum: [null], description: 'always null' };
  if (Array.isArray(shape)) return { type: 'array', items: { $ref: getSchemaPath(shape[0]) } };
  if ('page' in shape) {
    return {
      type: 'object',
      required: ['data', 'page', 'perPage', 'totalItems'],
      properties: {
        data: { type: 'array', items: { $ref: getSchemaPath(shape.page) } },
        page: { type: 'integer', minimum: 0, description: 'the page returned, from 0' },
        perPage: { type: 'integer', minimum: 1, maximum: 100, description: 'the page size asked for' },
        totalItems: { type: 'integer', minimum: 0, description: 'every item the filters match, on all pages' },
      },
    };
  }
  return { $ref: getSchemaPath(shape) };
}

function modelsOf(shape: DataShape): Type<unknown>[] {
  if (shape === null) return [];
  if (Array.isArray(shape)) return [shape[0]];
  if ('page' in shape) return [shape.page];
  return [shape];
}

/** X3: the header of a stored answer sent again. */
const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key` (X3): ' +
      'nothing ran again. Absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
};

function successResponse(spec: OperationSpec, replayable: boolean) {
  const message = spec.message ?? null;
  return ApiResponse({
    status: 200,
    description: 'Done. Every successful answer is 200, for POST too, in the success envelope (D1, D3).',
    headers: { ...RATE_LIMIT_HEADERS, ...(replayable ? REPLAYED_HEADER : {}) },
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['success', 'message', 'data', 'timestamp'],
          properties: {
            success: { type: 'boolean', enum: [true] },
            message:
              message === null
                ? { type: 'string', nullable: true, enum: [null], description: 'null for this operation (D3)' }
                : { type: 'string', enum: [message], description: 'the success code of this operation (D3)' },
            data: dataSchema(spec.data),
            timestamp: { type: 'string', format: 'date-time', description: 'time of the response (D1)' },
          },
        },
      },
    },
  });
}

const BODY_METHODS = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH]);

/** X1: the optional header of every write operation. */
function idempotencyKeyHeader() {
  return ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes the request safe to retry (X1-X5, docs/idempotency.md): 1 to 255 visible ASCII characters, ' +
      'unique per vendor for 24 hours. A retry with the same key, method, path and body gets the stored ' +
      'answer with `Idempotent-Replayed: true` and runs nothing again. An invalid value is VALIDATION_FAILED ' +
      'naming `Idempotency-Key`.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  });
}

/**
 * Declares an operation of the public API: its success envelope (200, `message`, `data`) and, for
 * the OpenAPI document, its id, summary, rules and every answer it can give. Input errors come from
 * what the handler's `@ValidInput` reads; business errors are listed in `errors`. Together with
 * `@ValidInput` this is all a new endpoint needs.
 */
export function Operation(spec: OperationSpec): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const input = inputSpecOf(target, propertyKey);
    const method = Reflect.getMetadata(METHOD_METADATA, descriptor.value as object) as RequestMethod | undefined;
    if (method === undefined || Reflect.getMetadata(PATH_METADATA, descriptor.value as object) === undefined) {
      throw new Error(`@Operation(${spec.id}) must be written above the route decorator (@Get, @Post, ...)`);
    }
    const readsBody = BODY_METHODS.has(method);
    const hasInput = Boolean(input?.params || input?.query || input?.body);
    if (readsBody && !hasInput) {
      // an invalid Idempotency-Key is reported by the validation pass of @ValidInput (X1)
      throw new Error(`@Operation(${spec.id}): a POST, PUT or PATCH operation needs @ValidInput`);
    }
    const business = spec.errors ?? [];
    const bad: ErrorCode[] = [
      ...(hasInput ? (['VALIDATION_FAILED'] as const) : []),
      ...(readsBody ? (['INVALID_REQUEST'] as const) : []),
      ...(business.includes('DUPLICATE_ENTRY') ? (['DUPLICATE_ENTRY'] as const) : []),
    ];
    const decorators = [
      Success(spec.message ?? null),
      ApiOperation({ operationId: spec.id, summary: spec.summary, description: spec.description }),
      ApiExtraModels(...modelsOf(spec.data), StandardErrorSchema, AuthErrorSchema, FieldErrorSchema),
      successResponse(spec, readsBody),
      authResponse(),
      rateLimitedResponse(),
      errorResponse(500, 'A fault of the service. Nothing was committed; the request id is in the log.', [
        'INTERNAL_SERVER_ERROR',
      ]),
      errorResponse(
        503,
        'The database is busy or did not answer in time. Nothing was committed; retry after the Retry-After seconds.',
        ['SERVICE_UNAVAILABLE'],
        { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } },
      ),
    ];
    if (bad.length > 0) {
      decorators.push(
        errorResponse(400, 'The request is not acceptable; `message` says why and `errors` names the fields.', bad),
      );
    }
    if (business.includes('RESOURCE_NOT_FOUND')) {
      decorators.push(errorResponse(404, 'Not found for the caller’s vendor.', ['RESOURCE_NOT_FOUND']));
    }
    const conflicts: ErrorCode[] = [
      ...(business.includes('INVALID_STATE_TRANSITION') ? (['INVALID_STATE_TRANSITION'] as const) : []),
      ...(readsBody ? (['IDEMPOTENCY_KEY_IN_USE'] as const) : []),
    ];
    if (conflicts.length > 0) {
      decorators.push(
        errorResponse(
          409,
          [
            ...(business.includes('INVALID_STATE_TRANSITION')
              ? ['INVALID_STATE_TRANSITION: the lead’s current state does not allow this (D30, D31).']
              : []),
            ...(readsBody
              ? ['IDEMPOTENCY_KEY_IN_USE: a request with the same Idempotency-Key is still running; nothing ran (X4).']
              : []),
          ].join(' '),
          conflicts,
          readsBody
            ? { 'Retry-After': { description: 'seconds to wait before retrying (IDEMPOTENCY_KEY_IN_USE)', schema: { type: 'integer' } } }
            : undefined,
        ),
      );
    }
    if (readsBody) {
      decorators.push(
        idempotencyKeyHeader(),
        errorResponse(
          422,
          'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used within 24 hours for a request with another method, path or body; nothing ran (X4).',
          ['IDEMPOTENCY_KEY_REUSED'],
        ),
        errorResponse(408, 'The body did not arrive within the request timeout.', ['INVALID_REQUEST']),
        errorResponse(413, 'The body is larger than 1 MiB (D6).', ['INVALID_REQUEST']),
      );
    }
    applyDecorators(...decorators)(target, propertyKey, descriptor);
  };
}
