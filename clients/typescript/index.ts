import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

/** Every request and response body of the API by name, e.g. `Schemas['LeadBody']`. */
export type Schemas = components['schemas'];

/** openapi-fetch's client typed by the API: `client.GET(path, { params })`, `client.POST(path, { params, body })`. */
export type PartnerClient = Client<paths>;

export interface PartnerClientOptions {
  /** Where the public port answers, without a path (`https://prm.example.com`); paths start with /api/v1/vendors/. */
  baseUrl: string;
  /** A vendor's API key (`node dist/cli.js vendors:create` or `api-keys:create`), sent as X-API-KEY on every request. */
  apiKey: string;
  /** Another fetch implementation (a proxy-aware one, a test double); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
}

/**
 * A typed client of the partner relationship API. Each call resolves to `{ data, error, response }`:
 * `data` is the success envelope of a 2xx answer, `error` the documented error body of any other
 * (its `message` is the wire code, e.g. RESOURCE_NOT_FOUND), `response` the raw Response.
 */
export function createPartnerClient({ baseUrl, apiKey, fetch }: PartnerClientOptions): PartnerClient {
  return createClient<paths>({ baseUrl, headers: { 'X-API-KEY': apiKey }, ...(fetch ? { fetch } : {}) });
}
