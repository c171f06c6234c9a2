import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Clock } from '../domain/clock';
import type { SuccessEnvelope } from './envelope';
import { isoDateTime } from '../domain/date-time';
import { API_NAMESPACE } from './api-key.hook';

/** What a browser page of an allowed origin may send and read (docs/operations.md, CORS_ORIGINS). */
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE'; // DELETE: a webhook endpoint (X16)
const ALLOW_HEADERS = 'X-API-KEY, Content-Type, X-Request-Id, Idempotency-Key';
const EXPOSE_HEADERS = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * CORS for the origins of CORS_ORIGINS, and for no other: without the setting no response carries
 * `Access-Control-Allow-Origin`, so a browser page of another site cannot read any answer, and a
 * preflight is an ordinary request without a key (401 API_KEY_MISSING, D8).
 *
 * For an allowed origin, every response carries `Access-Control-Allow-Origin` (a page can read a
 * 401 or a 429 as well as a 200), and a preflight (`OPTIONS` with `Access-Control-Request-Method`)
 * is answered here, before the key check: a browser never sends `X-API-KEY` on a preflight, and
 * answering it runs nothing and reveals nothing. It is answered 200 in the success envelope with
 * `data: null`, so that it too is a shape of the contract. A preflight outside the API's namespace
 * is not answered here: it gets UNKNOWN_API_NAMESPACE, as every request there does (D8).
 *
 * Not @fastify/cors: once registered it answers every preflight that names an origin with a bare
 * 204 before the key check, allowed origin or not (unless a per-request delegator turns it off), a
 * non-preflight OPTIONS of an allowed origin with `400 text/plain`, adds an `OPTIONS *` route that
 * takes over the route pattern of every OPTIONS request, and its hook, added by the plugin loader,
 * would run after the API-key hook of configureHttp. Registered only when CORS_ORIGINS is set: the
 * default configuration pays nothing for it.
 */
export function corsHook(allowedOrigins: readonly string[], clock: Clock) {
  const allowed = new Set(allowedOrigins);
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return done();
    reply.header('access-control-allow-origin', origin);
    // outside the namespace a preflight is no exception to D8's first step: UNKNOWN_API_NAMESPACE
    if (
      request.method === 'OPTIONS' &&
      request.headers['access-control-request-method'] !== undefined &&
      request.url.startsWith(API_NAMESPACE)
    ) {
      const body: SuccessEnvelope<null> = {
        success: true,
        message: null,
        data: null,
        timestamp: isoDateTime(clock.now()),
      };
      void reply
        .code(200)
        .header('access-control-allow-methods', ALLOW_METHODS)
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
        .type('application/json; charset=utf-8')
        .send(body);
      return;
    }
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    done();
  };
}
