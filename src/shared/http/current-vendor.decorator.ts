import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The id of the vendor the request's API key belongs to (never read from the body: docs/api.md 5.1). */
export const CurrentVendor = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const vendorId = context.switchToHttp().getRequest<FastifyRequest>().vendorId;
  if (vendorId === undefined) throw new Error('route reached without authentication');
  return vendorId;
});
