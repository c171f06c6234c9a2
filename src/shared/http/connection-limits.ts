import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig, HttpLimits } from '../../config/app-config';
import type { AuthErrorBody, StandardErrorBody } from './error-response';
import { isoDateTime } from '../domain/date-time';

/**
 * What a client may hold on the public port, and how the port lets go of its clients on SIGTERM
 * (docs/operations.md). Everything here is a server option, a per-connection listener or one
 * synchronous onSend check: nothing is added to the work of an ordinary request.
 *
 * - The request headers must arrive within HTTP_HEADERS_TIMEOUT_MS and the whole request, body
 *   included, within HTTP_REQUEST_TIMEOUT_MS (fastify's `requestTimeout` and Node's `headersTimeout`, checked
 *   every tenth of the shorter one, at most every second): otherwise 408 in the standard shape and
 *   the connection is closed.
 * - A response sent before the request body was received (401 from the API-key hook, 413) says
 *   `Connection: close`, and Node then closes the socket instead of reading the rest of the body.
 * - At most `server.maxConnections` connections are open; further ones are closed at accept, with one
 *   log line per burst.
 * - While draining (SIGTERM) every response says `Connection: close`.
 */

type HttpSocket = Socket;

const tracked = new WeakMap<Server, Set<HttpSocket>>();
/**
 * The responses of each connection not yet finished, in the order their requests arrived (a
 * pipelining client may send several): the first is the one being written, as Node writes them
 * one after another. Kept from the server's public 'request' event.
 */
const responses = new WeakMap<Socket, ServerResponse[]>();
const trackingServers = new WeakSet<Server>();

function trackResponses(server: Server): void {
  if (trackingServers.has(server)) return;
  trackingServers.add(server);
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    let queue = responses.get(socket);
    if (!queue) responses.set(socket, (queue = []));
    queue.push(response);
    // Emitted once the response is written or its connection is gone: a keep-alive connection
    // serves many requests, and none may stay in its queue after that.
    response.once('close', () => {
      const at = queue.indexOf(response);
      if (at !== -1) queue.splice(at, 1);
    });
  });
}

/** The response being written on the socket, if a request is in progress there. */
function responseInProgress(socket: Socket): ServerResponse | undefined {
  const queue = responses.get(socket);
  if (!queue) return undefined;
  while (queue.length > 0 && queue[0]!.writableFinished) queue.shift();
  return queue[0];
}
const draining = new WeakSet<Server>();
/** Sockets whose request was cut for taking too long: their unfinished body is a 408, not a 400. */
const timedOut = new WeakSet<Socket>();

/** A burst of refused connections ends after this long without one. */
const DROP_BURST_QUIET_MS = 10_000;

/** The soft limit on open files of this process (`ulimit -n`), when the platform says (Linux). */
export function openFileLimit(limitsFile = '/proc/self/limits'): number | undefined {
  try {
    const line = readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^[0-9]+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The connection cap for an open-file limit: the limit less a reserve for the database pool, the
 * management port, log and SMTP sockets and Node itself (a tenth of the limit, from 64 to 1,000
 * descriptors). Unknown limit: no cap.
 */
export function maxConnectionsFor(openFiles: number | undefined): number {
  if (openFiles === undefined) return 0;
  const reserve = Math.min(1000, Math.max(64, Math.ceil(openFiles / 10)));
  return Math.max(1, openFiles - reserve);
}

/** How often Node looks for requests past their deadline: a tenth of the shorter bound, 100 ms to 1 s. */
export function checkingIntervalFor(limits: HttpLimits): number {
  const shorter = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return Math.min(1000, Math.max(100, Math.floor(shorter / 10)));
}

/**
 * Applies the limits of the configuration to the public port's server. Call before `listen` (Node
 * starts its timeout checks, at the interval set here, when the server starts listening).
 */
export function applyConnectionLimits(app: NestFastifyApplication): void {
  const limits = app.get(AppConfig).http;
  const server = app.getHttpServer() as Server;
  const logger = new Logger('Http');
  const openFiles = openFileLimit();
  const maxConnections = limits.maxConnections ?? maxConnectionsFor(openFiles);
  if (maxConnections > 0) {
    server.maxConnections = maxConnections;
    server.on('drop', dropLogger(maxConnections, logger));
  }
  trackResponses(server);
  const sockets = new Set<HttpSocket>();
  tracked.set(server, sockets);
  server.on('connection', (socket: HttpSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  logger.log(
    {
      headersTimeoutMs: limits.headersTimeoutMs,
      requestTimeoutMs: limits.requestTimeoutMs,
      maxConnections: maxConnections || null,
      openFileLimit: openFiles ?? null,
    },
    'HTTP connection limits',
  );
}

/** One warning when the cap starts refusing connections, one line when the burst is over. */
export function dropLogger(maxConnections: number, logger: Pick<Logger, 'warn' | 'log'>): () => void {
  let refused = 0;
  let lastRefusal = 0;
  let watch: NodeJS.Timeout | undefined;
  return () => {
    refused += 1;
    lastRefusal = Date.now();
    if (watch) return;
    logger.warn(
      { maxConnections },
      `connection limit reached: ${maxConnections} connections open, refusing new ones (HTTP_MAX_CONNECTIONS)`,
    );
    watch = setInterval(() => {
      if (Date.now() - lastRefusal < DROP_BURST_QUIET_MS) return;
      logger.log({ maxConnections, refused }, `connection limit: ${refused} connections were refused`);
      clearInterval(watch);
      watch = undefined;
      refused = 0;
    }, DROP_BURST_QUIET_MS / 2).unref();
  };
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * onSend: `Connection: close` on a response sent before its request's body has arrived (the client
 * would otherwise keep the connection busy sending a body nobody reads), and on every response
 * while draining (a keep-alive client then opens a new connection instead of sending its next
 * request into a closing one).
 */
export function closeConnectionWhenDone(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  const raw = request.raw;
  if ((!raw.complete && hasBody(raw)) || draining.has(request.server.server as Server)) {
    reply.header('connection', 'close');
  }
  done(null, payload);
}

/**
 * A JSON body as a complete HTTP/1.1 response that closes the connection. It carries an
 * X-Request-Id like every response of the service (docs/api.md "Requests"), newly made: the HTTP
 * server answers before a request exists, so no caller's id has been read and the request log has
 * no line for it.
 */
function rawResponse(status: number, body: StandardErrorBody | AuthErrorBody): string {
  const text = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(text)}\r\n` +
    `X-Request-Id: ${randomUUID()}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Connection: close\r\n\r\n' +
    text
  );
}

/** The standard error shape as a complete HTTP/1.1 response that closes the connection. */
function rawErrorResponse(status: number): string {
  return rawResponse(status, {
    message: 'INVALID_REQUEST',
    status,
    success: false,
    errors: [],
    timestamp: isoDateTime(new Date()),
  });
}

/**
 * Answers `status` in the standard shape unless a response has begun on this socket, then closes
 * the socket once the answer is written (at the latest after a second).
 */
function answerAndClose(socket: HttpSocket, status: number, response = rawErrorResponse(status)): void {
  if (socket.destroyed) return;
  const inProgress = responseInProgress(socket);
  if (!socket.writable || (inProgress?.headersSent && !inProgress.writableFinished)) {
    socket.destroy();
    return;
  }
  socket.write(response);
  socket.destroySoon();
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Sockets whose request body the HTTP parser could not read (a broken chunk): it will not arrive. */
const unreadableBody = new WeakSet<Socket>();
/** How json-body's readBody, waiting for a body, hears that it will not arrive. */
const bodyWaiters = new WeakMap<Socket, () => void>();

/** Runs `then` once every response in progress on the socket is finished (pipelined ones included). */
function afterResponses(socket: HttpSocket, then: () => void): void {
  const response = responseInProgress(socket);
  if (!response) return then();
  response.once('finish', () => afterResponses(socket, then));
}

/**
 * fastify's clientErrorHandler: errors Node's HTTP parser raises (a request or its headers past
 * their deadline, unparsable HTTP, headers too large, a broken body) answered in the standard
 * shape, `message: INVALID_REQUEST` with the HTTP status (408, 431, otherwise 400), unless a
 * response has begun on the socket; then the connection is closed.
 *
 * Two cases keep the order of answers:
 * - The bytes after a complete request are broken (a pipelined or next keep-alive message): that
 *   request is answered first, then the 400, then the connection closes.
 * - The body of the request in progress is broken (a bad chunk): the application answers it, so
 *   that authentication still comes first (D8: a 401 whatever the body); a request past the key
 *   check gets 400 INVALID_REQUEST from json-body as soon as its body is read. That response
 *   closes the connection (closeConnectionWhenDone).
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const httpSocket = socket as HttpSocket;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    timedOut.add(socket);
    answerAndClose(httpSocket, 408);
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const response = responseInProgress(httpSocket);
  if (response && !response.writableFinished && !response.headersSent) {
    if (response.req.complete) {
      afterResponses(httpSocket, () => answerAndClose(httpSocket, status));
    } else {
      unreadableBody.add(socket);
      bodyWaiters.get(socket)?.();
      afterResponses(httpSocket, () => socket.destroySoon());
    }
    return;
  }
  answerAndClose(httpSocket, status);
}

/**
 * For json-body's readBody: `onBroken` is called (at once, or when it happens) if the HTTP parser
 * finds the request's body broken. Returns the function that stops listening.
 */
export function whenBodyBroken(request: IncomingMessage, onBroken: () => void): () => void {
  const socket = request.socket;
  if (unreadableBody.has(socket)) {
    onBroken();
    return () => undefined;
  }
  bodyWaiters.set(socket, onBroken);
  return () => bodyWaiters.delete(socket);
}

/**
 * Requests Node would answer itself, outside the contract's shapes, handed to the application or
 * answered in a shape of the contract instead:
 * - an `Expect` other than `100-continue` (Node: a bare 417): served like any request, the header
 *   ignored (RFC 9110 lets a server ignore an expectation it does not support);
 * - `CONNECT host:port` (Node: the socket destroyed, no answer): its target is never inside
 *   `/api/v1/vendors/`, so it is refused as D8 refuses any path outside the namespace, 401
 *   UNKNOWN_API_NAMESPACE, and the connection closed;
 * - HTTP/1.1 without a `Host` header (Node: a bare 400): the host names nothing here, so the
 *   request is served like any other (authentication first, D8).
 */
export function answerEveryRequest(server: Server): void {
  trackResponses(server);
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    server.emit('request', request, response);
  });
  server.on('connect', (_request: IncomingMessage, socket: HttpSocket) => {
    const body: AuthErrorBody = {
      success: false,
      message: 'UNKNOWN_API_NAMESPACE',
      data: null,
      timestamp: isoDateTime(new Date()),
    };
    answerAndClose(socket, 401, rawResponse(401, body));
  });
}

/** Whether the request's connection was cut for not sending its request in time (408). */
export function wasTimedOut(request: IncomingMessage): boolean {
  return timedOut.has(request.socket);
}

/** The public port while it drains (D41), from `beginDrain` until the server is closed. */
export interface Drain {
  /** whether a connection has no request in progress (idle keep-alive, or headers not yet complete) */
  hasIdle(): boolean;
  /**
   * Closes every connection whose request has not been received in full (headers or body still
   * arriving, 408), or whose response is written but not taken by the client. Requests being
   * handled are left to finish. Returns how many connections were closed.
   */
  cutUnreceived(): number;
  end(): void;
}

/**
 * From now on every response closes its connection and no new connection is accepted. Idle
 * keep-alive connections are left to `closeIdleConnections`, so that the caller may give a client
 * that is sending its next request on one a moment to get it answered (with `Connection: close`).
 */
export function beginDrain(server: Server): Drain {
  draining.add(server);
  // net's close, not http's: http's also closes idle connections at once (racing a client's next
  // request on them) and stops Node's timeout checks; both happen when fastify closes the server.
  if (server.listening) NetServer.prototype.close.call(server);
  const sockets = tracked.get(server) ?? new Set<HttpSocket>();
  return {
    hasIdle: () => {
      for (const socket of sockets) if (!responseInProgress(socket)) return true;
      return false;
    },
    cutUnreceived: () => {
      let cut = 0;
      for (const socket of sockets) {
        const response = responseInProgress(socket);
        if (!response || !response.req.complete) {
          timedOut.add(socket);
          answerAndClose(socket, 408);
        } else if (response.writableEnded) {
          socket.destroy();
        } else {
          continue;
        }
        cut += 1;
      }
      return cut;
    },
    end: () => draining.delete(server),
  };
}
