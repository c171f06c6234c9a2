import type { FastifyInstance } from 'fastify';
import type pino from 'pino';

/**
 * One log line per request of the public port, written when the response is finished: request id,
 * method, path (never the query string, which may carry an email typed as a keyword), route
 * pattern, status, duration and the vendor the key belongs to; at warn for a 503, at error for any
 * other 5xx, else at info. A fastify hook rather than a
 * middleware: no per-request closure chain, no second request object (docs/performance.md).
 */
export function installRequestLog(fastify: FastifyInstance, logger: pino.Logger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    // a 503 is the database busy past its bound (docs/operations.md): expected, and retried by the
    // client; any other 5xx is a fault
    const level = status === 503 ? 'warn' : status >= 500 ? 'error' : 'info';
    if (logger.isLevelEnabled(level)) {
      const query = request.url.indexOf('?');
      logger[level](
        {
          reqId: request.id,
          method: request.method,
          path: query === -1 ? request.url : request.url.slice(0, query),
          route: request.routeOptions.url ?? null,
          status,
          ms: Math.round(reply.elapsedTime * 100) / 100,
          vendorId: request.vendorId ?? null,
        },
        'request completed',
      );
    }
    done();
  });
}
