import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../domain/clock';
import { EdgeError, toErrorResponse } from './error-response';
import { MalformedBody } from './json-body';

/** Every error that leaves a controller or a pipe: the contract's shape, never a stack trace or SQL. */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(private readonly clock: Clock) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(reply, request, bodyBeforeExistence(exception, request.body), this.clock.now(), this.logger);
  }
}

/**
 * D37 puts body syntax (step 3) before existence (step 5), and D11's unknown routes are no exception:
 * a body that cannot be used on a route or method that does not exist is 400 INVALID_REQUEST, not
 * 404 (docs/api.md, "Choices the rules leave open"). The framework's not-found handler is the only
 * thrower of NotFoundException (the use cases' 404 is a DomainError), and it runs after the body
 * parser, which kept the unusable body as a MalformedBody.
 */
function bodyBeforeExistence(exception: unknown, body: unknown): unknown {
  return exception instanceof NotFoundException && body instanceof MalformedBody
    ? EdgeError.invalidRequest(body.reason)
    : exception;
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  exception: unknown,
  now: Date,
  logger: Logger,
): void {
  const response = toErrorResponse(exception, now);
  if (response.unexpected) {
    // The path without its query (a keyword may be an email address); the error through the
    // logger's `err` serializer, which keeps no statement parameters (docs/operations.md).
    const query = request.url.indexOf('?');
    logger.error(
      {
        reqId: request.id,
        method: request.method,
        path: query === -1 ? request.url : request.url.slice(0, query),
        err: exception,
      },
      'unexpected error',
    );
  }
  if (response.retryAfterSeconds !== undefined)
    void reply.header('retry-after', String(response.retryAfterSeconds));
  void reply.status(response.status).type('application/json; charset=utf-8').send(response.body);
}
