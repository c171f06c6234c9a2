import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../application/actor';

function authenticated(context: ExecutionContext): FastifyRequest & { vendorId: number } {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (request.vendorId === undefined) throw new Error('route reached without authentication');
  return request as FastifyRequest & { vendorId: number };
}

/** The id of the vendor the request's API key belongs to (never read from the body: docs/api.md 5.1). */
export const CurrentVendor = createParamDecorator(
  (_data: unknown, context: ExecutionContext): number => authenticated(context).vendorId,
);

/** The vendor and the display prefix of the request's API key, for use cases whose changes a history records (X12). */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = authenticated(context);
  return { vendorId: request.vendorId, apiKeyPrefix: request.apiKeyPrefix ?? null };
});
