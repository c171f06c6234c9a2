import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
import { Clock } from '../../shared/domain/clock';
import { API_NAMESPACE } from '../../shared/http/api-key.hook';
import { EdgeError } from '../../shared/http/error-response';
import { sendError } from '../../shared/http/http-exception.filter';
import { MalformedBody } from '../../shared/http/json-body';
import { BodyMode, BodyRouteConfig, bodySyntaxProblem } from '../../shared/http/request-input';
import { IdempotentRequests } from '../application/idempotent-requests';
import { IdempotencyClaim } from '../domain/idempotency-record';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyProblem } from '../domain/idempotency-key';
import { FingerprintBody, requestFingerprint } from '../domain/request-fingerprint';

declare module 'fastify' {
  interface FastifyRequest {
    /** X2: the key this request holds while it runs; stored or released when its response is sent. */
    idempotencyClaim?: IdempotencyClaim;
  }
}

/** X1: the methods whose requests may carry a key. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** X3: the header of an answer that was stored before, not made now. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** X4: a key held by a running request; a second is a fair first wait. */
const IN_USE_RETRY_AFTER_SECONDS = 1;

type Done = HookHandlerDoneFunction;

/**
 * X1-X4 at the HTTP edge. The two hooks are added to the write routes of the namespace only (as
 * each route is registered), so GET requests do not run them at all, and a write without the
 * header pays one header lookup (docs/performance.md).
 *
 * - preHandler: after authentication (the API-key hook set `vendorId`) and after the body was
 *   parsed; it claims the key, or answers 409/422, or replays the stored response, before the
 *   route's validation and use case. A body the route will refuse for its syntax (D37 step 3, as
 *   `bodySyntaxProblem` decides for the route's body mode) leaves the key alone: the route answers
 *   400 INVALID_REQUEST, and nothing is claimed, compared or stored. An invalid header value is left
 *   to the route's validation pass, so that D37's order (body syntax before fields) and D18 (every
 *   field in one answer) hold.
 * - onSend: stores the response (X2) or frees the key, before the response leaves, so a client
 *   that has its answer finds the key finished.
 */
export function installIdempotency(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const requests = app.get(IdempotentRequests);
  const clock = app.get(Clock);
  const logger = new Logger('HttpError');
  const preHandlers = new Map<BodyMode, ReturnType<typeof claimKey>>();
  const onSend = finishKey(requests);
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith(API_NAMESPACE)) return;
    if (!methods.some((method) => WRITE_METHODS.has(method.toUpperCase()))) return;
    // set by @ValidInput; a write route without it reads no body
    const bodyMode = (route.config as BodyRouteConfig | undefined)?.body ?? 'ignored';
    let preHandler = preHandlers.get(bodyMode);
    if (!preHandler) {
      preHandler = claimKey(requests, clock, logger, bodyMode);
      preHandlers.set(bodyMode, preHandler);
    }
    route.preHandler = [...asList(route.preHandler), preHandler];
    route.onSend = [...asList(route.onSend), onSend];
  });
}

function asList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

function headerValue(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  return Array.isArray(header) ? header.join(', ') : header;
}

function fingerprintBody(body: unknown): FingerprintBody {
  if (body === undefined) return { kind: 'none' };
  if (body instanceof MalformedBody) return { kind: 'unusable', reason: body.reason };
  return { kind: 'json', value: body };
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function claimKey(requests: IdempotentRequests, clock: Clock, logger: Logger, bodyMode: BodyMode) {
  return (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
    const key = headerValue(request);
    if (key === undefined) return done(); // the hot path: no header, nothing else
    // D37: body syntax comes before the key; the route answers 400 INVALID_REQUEST
    if (bodySyntaxProblem(bodyMode, request.body) !== null) return done();
    const problem = idempotencyKeyProblem(key);
    const vendorId = request.vendorId;
    if (problem !== null) {
      // X1: reported by the route's validation pass, first among its fields
      request.headerErrors = [{ field: IDEMPOTENCY_KEY_HEADER, error: problem }];
      return done();
    }
    if (vendorId === undefined) return done(); // unreachable: the API-key hook refused the request
    const fingerprint = requestFingerprint(
      request.method,
      pathOf(request.url),
      fingerprintBody(request.body),
    );
    requests.begin(vendorId, key, fingerprint).then(
      (outcome) => {
        switch (outcome.kind) {
          case 'run':
            request.idempotencyClaim = outcome.claim;
            return done();
          case 'replay':
            void reply
              .code(outcome.response.status)
              .header(REPLAYED_HEADER, 'true')
              .type('application/json; charset=utf-8')
              .send(outcome.response.body);
            return;
          case 'reused':
            return sendError(
              reply,
              request,
              new EdgeError(422, 'IDEMPOTENCY_KEY_REUSED'),
              clock.now(),
              logger,
            );
          case 'in_use':
            void reply.header('retry-after', String(IN_USE_RETRY_AFTER_SECONDS));
            return sendError(
              reply,
              request,
              new EdgeError(409, 'IDEMPOTENCY_KEY_IN_USE'),
              clock.now(),
              logger,
            );
        }
      },
      // the claim could not be made (the database is busy: 503): nothing ran, nothing is held
      (error: unknown) => sendError(reply, request, error, clock.now(), logger),
    );
  };
}

/** `message` of an error body, for X2's one status that depends on it (400 DUPLICATE_ENTRY). */
function errorCodeOf(status: number, body: string): string | undefined {
  if (status !== 400) return undefined;
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

function finishKey(requests: IdempotentRequests) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ): void => {
    const claim = request.idempotencyClaim;
    if (claim === undefined) return done(null, payload);
    request.idempotencyClaim = undefined;
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    const status = reply.statusCode;
    // Our responses are JSON text; anything else (a stream) cannot be stored and frees the key.
    const response = { status: body === undefined ? 500 : status, body: body ?? '' };
    void requests.finish(claim, response, errorCodeOf(status, response.body)).then(() => done(null, payload));
  };
}
