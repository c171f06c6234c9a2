import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '../application/api-key-authenticator';
import { Clock } from '../domain/clock';
import { AuthErrorCode, authenticationRefusal } from './error-response';

export const API_NAMESPACE = '/api/v1/vendors/';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API-key hook before any route runs; every route in the namespace has it. */
    vendorId?: number;
    /** The display prefix of the request's key (D9), set with vendorId: who made a change (X12). */
    apiKeyPrefix?: string;
  }
}

/**
 * D8: authentication runs in fastify's onRequest hook, before the body is read (so before the
 * 413 of D37), before routing decides 404, for every method and path of the public port:
 * namespace, then a present key, then a known and unrevoked key. A refusal is answered here
 * directly (no exception through Nest's handler: it is the most frequent error there is).
 */
export function apiKeyHook(authenticator: ApiKeyAuthenticator, clock: Clock) {
  const refuse = (reply: FastifyReply, code: AuthErrorCode): FastifyReply => {
    const { status, body } = authenticationRefusal(code, clock.now());
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const url = request.url;
    if (!url.startsWith(API_NAMESPACE)) return refuse(reply, 'UNKNOWN_API_NAMESPACE');
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key.trim() === '') return refuse(reply, 'API_KEY_MISSING');
    const vendor = await authenticator.authenticate(key);
    if (!vendor) return refuse(reply, 'INVALID_API_KEY');
    request.vendorId = vendor.vendorId;
    request.apiKeyPrefix = vendor.keyPrefix;
    return undefined;
  };
}
