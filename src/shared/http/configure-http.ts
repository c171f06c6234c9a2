import { randomUUID } from 'node:crypto';
import { type IncomingMessage, ServerResponse } from 'node:http';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { Clock } from '../domain/clock';
import { Metrics } from '../management/metrics';
import { apiKeyHook } from './api-key.hook';
import { answerClientError, closeConnectionWhenDone } from './connection-limits';
import { wrapInEnvelope } from './envelope';
import { HttpExceptionFilter } from './http-exception.filter';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './json-body';
import { installRequestLog } from './request-log';
import { AppLogger } from '../logging.module';
import { installIdempotency } from '../../idempotency/http/idempotency.hooks';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** A caller's X-Request-Id is kept when it is sane; otherwise a new one is made. */
export function requestIdOf(request: IncomingMessage & { id?: unknown }): string {
  if (typeof request.id === 'string') return request.id;
  const header = request.headers['x-request-id'];
  const candidate = Array.isArray(header) ? header[0] : header;
  const id = candidate && REQUEST_ID.test(candidate) ? candidate : randomUUID();
  request.id = id; // shared by fastify and the request logger
  return id;
}

/** Nest's fastify adapter, and the one place a handler's result becomes the success envelope. */
class ApiFastifyAdapter extends FastifyAdapter {
  override reply(response: FastifyReply | ServerResponse, body: unknown, statusCode?: number): FastifyReply {
    const payload = response instanceof ServerResponse ? body : wrapInEnvelope(response, body, statusCode);
    return super.reply(response, payload, statusCode);
  }
}

export function createHttpAdapter(): FastifyAdapter {
  return new ApiFastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    requestIdHeader: false,
    // D41: a request on a connection accepted before SIGTERM is answered normally (with
    // `Connection: close`), not with fastify's own 503 body.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // A request or its headers past their deadline (408), unparsable HTTP (400), headers too large
    // (431): answered in the standard shape. The deadlines are set by applyConnectionLimits.
    clientErrorHandler: answerClientError,
  });
}

/**
 * Everything the public port shares, in one place for the server and the test app: the API-key
 * hook, the body parser, the envelope, the error shape and the namespace prefix. Errors fastify
 * raises itself (413 while reading a body) reach the same exception filter through Nest's error handler.
 */
export function configureHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const clock = app.get(Clock);
  installJsonBodyParser(fastify);
  app.get(Metrics).instrument(fastify);
  installRequestLog(fastify, app.get(AppLogger).pino);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onRequest', apiKeyHook(app.get(ApiKeyAuthenticator), clock));
  fastify.addHook('onSend', closeConnectionWhenDone);
  installIdempotency(app); // X1-X5: hooks on the write routes, after authentication and body parsing
  app.setGlobalPrefix('api/v1/vendors');
  app.useGlobalFilters(new HttpExceptionFilter(clock));
}
