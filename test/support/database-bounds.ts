import { TestApp, createVendor, unique } from './test-app';
import { VendorApi, invitePartner, leadBody, vendorApi } from './lead-fixtures';

/**
 * docs/operations.md: every request that needs the database is answered within DATABASE_TIMEOUT_MS,
 * a busy database with 503 SERVICE_UNAVAILABLE and Retry-After, and the service serves normally
 * again once the cause ends, without a restart.
 */
export const BOUND_MS = 1500;
export const SLACK_MS = 1500;

export async function timed<T>(fn: () => PromiseLike<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await fn();
  return { result, ms: Date.now() - started };
}

export function expectUnavailable(response: {
  status: number;
  body: unknown;
  headers: Record<string, unknown>;
}) {
  expect(response.status).toBe(503);
  expect(response.body).toEqual({
    message: 'SERVICE_UNAVAILABLE',
    status: 503,
    success: false,
    errors: [],
    timestamp: expect.any(String),
  });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

export async function fixture(t: TestApp): Promise<{ api: VendorApi; partnerId: number; leadId: number }> {
  const { apiKey } = await createVendor(t.app);
  const api = vendorApi(t.http, apiKey);
  const partnerId = await invitePartner(t.http, apiKey);
  const created = await api
    .post(`/partners/${partnerId}/leads`)
    .send(leadBody({ emailAddress: `${unique('b')}@example.test` }));
  expect(created.status).toBe(200);
  return { api, partnerId, leadId: created.body.data.id };
}
