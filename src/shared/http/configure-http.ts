import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, ServerResponse } from 'node:http';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppConfig, type HttpLimits } from '../../config/app-config';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { Clock } from '../domain/clock';
import { Metrics } from '../management/metrics';
import { apiKeyHook } from './api-key.hook';
import { corsHook } from './cors';
import {
  answerClientError,
  answerEveryRequest,
  checkingIntervalFor,
  closeConnectionWhenDone,
} from './connection-limits';
import { wrapInEnvelope } from './envelope';
import { FairTurns } from './fair-turns';
import { HttpExceptionFilter } from './http-exception.filter';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './json-body';
import { parseQueryString } from './query-string';
import { RateLimits } from './rate-limits';
import { installRequestLog } from './request-log';
import { AppLogger } from '../logging.module';

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

/**
 * A path whose percent-encoding does not decode (`/leads/%/approve`, `/leads/%C3%28`) with every `%`
 * escaped as `%25`: it then decodes to the text that was sent, and is routed like any path.
 */
export function escapePercentInPath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.replace(/%/g, '%25') + (query === -1 ? '' : url.slice(query));
}

/** Longer than any request line Node accepts (its 16 KiB header limit): no path id is refused for length. */
const MAX_PARAM_LENGTH = 65_536;

export function createHttpAdapter(limits: HttpLimits): FastifyAdapter {
  const instance: { fastify?: FastifyInstance } = {};
  const adapter = new ApiFastifyAdapter({
    // The whole request within HTTP_REQUEST_TIMEOUT_MS and its headers within
    // HTTP_HEADERS_TIMEOUT_MS, checked every tenth of the shorter one (at most every second); an
    // HTTP/1.1 request without Host is served like any other, authentication first (D8).
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: checkingIntervalFor(limits),
      requireHostHeader: false,
    },
    // The router answers neither a path that does not decode (FST_ERR_BAD_URL, 400) nor a path
    // parameter over 100 characters (FST_ERR_MAX_PARAM_LENGTH, 414) itself, outside the contract's
    // shapes and before the API-key check: the first is routed again with its `%` escaped, the
    // second is routed like any path, so that authentication comes first (D8) and a bad id is
    // VALIDATION_FAILED naming it (D12, D39).
    routerOptions: {
      maxParamLength: MAX_PARAM_LENGTH,
      onBadUrl: (_path: string, request: IncomingMessage, response: ServerResponse) => {
        request.url = escapePercentInPath(request.url ?? '/');
        instance.fastify!.routing(request, response);
      },
      querystringParser: parseQueryString,
    },
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    requestIdHeader: false,
    // D41: a request on a connection accepted before SIGTERM is answered normally (with
    // `Connection: close`), not with fastify's own 503 body.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // A request or its headers past their deadline (408), unparsable HTTP (400), headers too large
    // (431): answered in the standard shape.
    clientErrorHandler: answerClientError,
  });
  instance.fastify = adapter.getInstance() as unknown as FastifyInstance;
  return adapter;
}

/**
 * Everything the public port shares (the modules' own hooks are added by `configureApi`,
 * src/bootstrap.ts): the API-key hook, the body parser, the envelope, the error shape and the namespace prefix. Errors fastify
 * raises itself (413 while reading a body) reach the same exception filter through Nest's error handler.
 */
export function configureHttp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const clock = app.get(Clock);
  answerEveryRequest(app.getHttpServer() as Server);
  installJsonBodyParser(fastify);
  app.get(Metrics).instrument(fastify);
  installRequestLog(fastify, app.get(AppLogger).pino);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No response of this API is anything but JSON: a browser must not guess another type.
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  fastify.addHook('onRequest', new FairTurns().hook);
  const { corsOrigins } = app.get(AppConfig).edge;
  if (corsOrigins.length > 0) fastify.addHook('onRequest', corsHook(corsOrigins, clock));
  fastify.addHook('onRequest', apiKeyHook(app.get(ApiKeyAuthenticator), clock, app.get(RateLimits)));
  fastify.addHook('onSend', closeConnectionWhenDone);
  app.setGlobalPrefix('api/v1/vendors');
  app.useGlobalFilters(new HttpExceptionFilter(clock));
}
