import { StoreUnavailableError } from '../application/unit-of-work';
import { DomainError, FieldError } from '../domain/domain-error';
import { isoDateTime } from '../domain/date-time';

/** Wire codes of the standard error shape (docs/api.md "Errors"). */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'INVALID_REQUEST'
  | 'DUPLICATE_ENTRY'
  | 'RESOURCE_NOT_FOUND'
  | 'INVALID_STATE_TRANSITION'
  | 'INTERNAL_SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE'
  // X4: 422, the Idempotency-Key was used for another request
  | 'IDEMPOTENCY_KEY_REUSED'
  // X4: 409, the Idempotency-Key is held by a request still running
  | 'IDEMPOTENCY_KEY_IN_USE'
  // X6: 429, the vendor's requests per minute are used up
  | 'RATE_LIMITED';

/** RATE_LIMITED: too many failed authentications from one address (X8), 429. */
export type AuthErrorCode = 'API_KEY_MISSING' | 'INVALID_API_KEY' | 'UNKNOWN_API_NAMESPACE' | 'RATE_LIMITED';

export interface StandardErrorBody {
  message: ErrorCode;
  status: number;
  success: false;
  errors: FieldError[];
  timestamp: string;
}

export interface AuthErrorBody {
  success: false;
  message: AuthErrorCode;
  data: null;
  timestamp: string;
}

/** Errors raised by the HTTP edge itself, before any use case runs. */
export class EdgeError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly fieldErrors: FieldError[] = [],
    detail?: string,
  ) {
    super(detail ?? code);
  }

  /** D6, D38: not JSON, not an object, wrong Content-Type, or a required body missing. */
  static invalidRequest(detail: string): EdgeError {
    return new EdgeError(400, 'INVALID_REQUEST', [], detail);
  }
}

/** D7, D8: refused before any business logic, with the authentication error shape. */
export class AuthenticationError extends Error {
  constructor(readonly code: AuthErrorCode) {
    super(code);
  }
}

export interface ErrorResponse {
  status: number;
  body: StandardErrorBody | AuthErrorBody;
  /** true when the error is a fault of ours: it is logged with its stack. */
  unexpected: boolean;
  /** seconds for a Retry-After header (503) */
  retryAfterSeconds?: number;
}

function standard(status: number, code: ErrorCode, errors: FieldError[], now: Date): ErrorResponse {
  return {
    status,
    body: { message: code, status, success: false, errors, timestamp: isoDateTime(now) },
    unexpected: code === 'INTERNAL_SERVER_ERROR',
  };
}

function fromDomainError(error: DomainError, now: Date): ErrorResponse {
  switch (error.kind) {
    case 'validation':
      return standard(400, 'VALIDATION_FAILED', error.fieldErrors, now);
    case 'duplicate':
      return standard(400, 'DUPLICATE_ENTRY', error.fieldErrors, now);
    case 'not_found':
      return standard(404, 'RESOURCE_NOT_FOUND', error.fieldErrors, now);
    case 'invalid_state_transition':
      return standard(409, 'INVALID_STATE_TRANSITION', error.fieldErrors, now);
    default: {
      const unmapped: never = error.kind;
      throw new Error(`unmapped domain error kind ${String(unmapped)}`);
    }
  }
}

/** Status codes fastify or Nest raise on their own, before our code runs. */
function fromFrameworkStatus(status: number, now: Date): ErrorResponse {
  if (status === 413) return standard(413, 'INVALID_REQUEST', [], now); // D6
  if (status === 404 || status === 405) return standard(404, 'RESOURCE_NOT_FOUND', [], now); // D11
  if (status >= 400 && status < 500) return standard(400, 'INVALID_REQUEST', [], now);
  return standard(500, 'INTERNAL_SERVER_ERROR', [], now);
}

/** D7: 401 with the authentication error shape; X8: 429 for RATE_LIMITED. */
export function authenticationRefusal(code: AuthErrorCode, now: Date): ErrorResponse {
  return {
    status: code === 'RATE_LIMITED' ? 429 : 401,
    body: { success: false, message: code, data: null, timestamp: isoDateTime(now) },
    unexpected: false,
  };
}

/**
 * The one place that turns any thrown value into a status and a body (used by the exception filter).
 */
/** X6: 429 in the standard shape, `errors: []`. */
export function rateLimited(now: Date): ErrorResponse {
  return standard(429, 'RATE_LIMITED', [], now);
}

export function toErrorResponse(error: unknown, now: Date): ErrorResponse {
  if (error instanceof AuthenticationError) return authenticationRefusal(error.code, now);
  if (error instanceof DomainError) return fromDomainError(error, now);
  if (error instanceof StoreUnavailableError) {
    // docs/operations.md: the database is busy or did not answer in time; nothing was committed.
    return { ...standard(503, 'SERVICE_UNAVAILABLE', [], now), retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof EdgeError) return standard(error.status, error.code, error.fieldErrors, now);
  const status = frameworkStatus(error);
  if (status !== undefined) return fromFrameworkStatus(status, now);
  return standard(500, 'INTERNAL_SERVER_ERROR', [], now);
}

/** Nest HttpException (getStatus) or a fastify error (statusCode, code FST_ERR_*). */
function frameworkStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = error as { getStatus?: () => number; statusCode?: unknown; code?: unknown };
  if (typeof candidate.getStatus === 'function') return candidate.getStatus();
  if (
    typeof candidate.code === 'string' &&
    candidate.code.startsWith('FST_') &&
    typeof candidate.statusCode === 'number'
  ) {
    return candidate.statusCode;
  }
  return undefined;
}
