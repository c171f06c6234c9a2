import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { AuthenticationError } from './error-response';

export const API_NAMESPACE = '/api/v1/vendors/';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API-key hook before any route runs; every route in the namespace has it. */
    vendorId?: number;
  }
}

/**
 * D8: authentication runs in fastify's onRequest hook, before the body is read (so before the
 * 413 of D37), before routing decides 404, for every method and path of the public port:
 * namespace, then a present key, then a known and unrevoked key.
 */
export function apiKeyHook(authenticator: ApiKeyAuthenticator) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const path = request.url.split('?', 1)[0]!;
    if (!path.startsWith(API_NAMESPACE)) throw new AuthenticationError('UNKNOWN_API_NAMESPACE');
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key.trim() === '') throw new AuthenticationError('API_KEY_MISSING');
    const vendor = await authenticator.authenticate(key);
    if (!vendor) throw new AuthenticationError('INVALID_API_KEY');
    request.vendorId = vendor.vendorId;
  };
}
