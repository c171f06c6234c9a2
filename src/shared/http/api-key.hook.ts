import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { Clock } from '../domain/clock';
import { AuthErrorCode, ErrorResponse, authenticationRefusal, rateLimited } from './error-response';
import { LimitState, RateLimits, isOverLimit, secondsToReset } from './rate-limits';

export const API_NAMESPACE = '/api/v1/vendors/';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API-key hook before any route runs; every route in the namespace has it. */
    vendorId?: number;
    /** The display prefix of the request's key (D9), set with vendorId: who made a change (X12). */
    apiKeyPrefix?: string;
  }
}

/**
 * D8: authentication runs in fastify's onRequest hook, before the body is read (so before the
 * 413 of D37), before routing decides 404, for every method and path of the public port:
 * namespace, then a present key, then a known and unrevoked key. A refusal is answered here
 * directly (no exception through Nest's handler: it is the most frequent error there is).
 *
 * The rate limits run here too, right after the key check, so that a refused request runs nothing
 * else (X6): an authenticated request counts against its vendor's limit and carries the RateLimit
 * headers; a failed authentication counts against its client address (X8), and past that limit the
 * 401 becomes a 429 in the authentication shape. A namespace miss is no attempt to authenticate and
 * is not counted.
 */
export function apiKeyHook(authenticator: ApiKeyAuthenticator, clock: Clock, limits: RateLimits) {
  const send = (reply: FastifyReply, { status, body }: ErrorResponse): FastifyReply =>
    reply.code(status).type('application/json; charset=utf-8').send(body);
  const refuse = async (
    request: FastifyRequest,
    reply: FastifyReply,
    code: AuthErrorCode,
  ): Promise<FastifyReply> => {
    const failures = limits.limitsAuthFailures ? await limits.authFailure(request.ip) : undefined;
    if (failures && isOverLimit(failures)) {
      reply.header('retry-after', secondsToReset(failures));
      return send(reply, authenticationRefusal('RATE_LIMITED', clock.now()));
    }
    return send(reply, authenticationRefusal(code, clock.now()));
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const url = request.url;
    if (!url.startsWith(API_NAMESPACE))
      return send(reply, authenticationRefusal('UNKNOWN_API_NAMESPACE', clock.now()));
    // Two X-API-KEY headers arrive joined into one value (`a, b`), which is no key: INVALID_API_KEY.
    const key = request.headers['x-api-key'] as string | undefined;
    if (key === undefined || key.trim() === '') return refuse(request, reply, 'API_KEY_MISSING');
    const vendor = await authenticator.authenticate(key);
    if (!vendor) return refuse(request, reply, 'INVALID_API_KEY');
    await authenticator.recordUse(vendor);
    request.vendorId = vendor.vendorId;
    request.apiKeyPrefix = vendor.keyPrefix;
    if (!limits.limitsVendors) return undefined;
    const state = await limits.vendorRequest(vendor.vendorId);
    if (state === undefined) return undefined; // the store is down: served without a limit (X7)
    rateLimitHeaders(reply, state);
    if (!isOverLimit(state)) return undefined;
    reply.header('retry-after', secondsToReset(state));
    return send(reply, rateLimited(clock.now()));
  };
}

/** X6: on every authenticated response; headers set here stay on whatever the request is answered. */
function rateLimitHeaders(reply: FastifyReply, state: LimitState): void {
  reply.header('ratelimit-limit', state.limit);
  reply.header('ratelimit-remaining', state.res.remainingPoints);
  reply.header('ratelimit-reset', secondsToReset(state));
}
