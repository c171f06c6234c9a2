import { HttpCode, applyDecorators } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isoDateTime } from '../domain/date-time';
import { AddRouteConfig } from './route-config';

/** The success codes docs/api.md lists (D3); every other operation answers with message null. */
export type SuccessCode =
  | 'PARTNER_INVITE_SUCCESSFUL'
  | 'PARTNER_USERS_INVITE_SUCCESSFUL'
  | 'PARTNER_REINVITE_SUCCESSFUL'
  | 'LEAD_CREATE_SUCCESSFUL'
  | 'LEAD_APPROVE_SUCCESSFUL';

export interface SuccessEnvelope<T> {
  success: true;
  message: SuccessCode | null;
  data: T;
  timestamp: string;
}

/** What `@Success` puts in the fastify route's config. */
interface EnvelopeRouteConfig {
  envelope?: { message: SuccessCode | null };
}

/**
 * Marks an operation: it answers 200 (also for POST) with the success envelope and this message.
 * The handler returns only the `data` part; `wrapInEnvelope` (called by the HTTP adapter when Nest
 * sends a handler's result) adds the rest. Done there rather than in an interceptor, which would
 * put every request through an rxjs pipeline (docs/performance.md).
 */
export function Success(code: SuccessCode | null = null): MethodDecorator {
  return applyDecorators(
    HttpCode(200),
    AddRouteConfig({ envelope: { message: code } } satisfies EnvelopeRouteConfig),
  );
}

/** The envelope for a successful result of a route marked with `@Success`; anything else as it is. */
export function wrapInEnvelope(reply: FastifyReply, body: unknown, statusCode: number | undefined): unknown {
  const config = reply.request?.routeOptions?.config as EnvelopeRouteConfig | undefined;
  const status = statusCode ?? reply.statusCode;
  if (!config?.envelope || status >= 300) return body;
  const envelope: SuccessEnvelope<unknown> = {
    success: true,
    message: config.envelope.message,
    data: body === undefined ? null : body,
    // D1: the time of the response
    timestamp: isoDateTime(new Date()),
  };
  return envelope;
}
