import { NestFastifyApplication } from '@nestjs/platform-fastify';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { DatabaseDialect } from '../../src/shared/infrastructure/database/database-dialect';
import { TestApp, createVendor, unique } from './test-app';

/** The writable lead fields in docs/api.md order, for asserting exact field sets (D4). */
export const LEAD_FIELDS = [
  'id',
  'partnerId',
  'firstName',
  'lastName',
  'emailAddress',
  'phoneNumber',
  'linkedInUrl',
  'companyName',
  'websiteUrl',
  'companySize',
  'industry',
  'jobTitle',
  'city',
  'state',
  'country',
  'source',
  'status',
  'leadAge',
  'productsInterested',
  'businessImpactMetrics',
  'externalId',
  'approvalStatus',
  'rejectReason',
  'rejectComment',
  'lastActiveAt',
  'submittedByType',
  'isDuplicate',
  'archived',
  'createdAt',
  'updatedAt',
];

/** Invites a new partner for the vendor of `apiKey` through the API (docs/api.md 1); returns its id. */
export async function invitePartner(
  http: TestAgent,
  apiKey: string,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  const response = await http
    .post('/api/v1/vendors/partners')
    .set('X-API-KEY', apiKey)
    .send({
      companyName: `Partner ${unique()}`,
      contactName: 'Pat Partner',
      contactEmailAddress: `${unique('partner')}@partner.test`,
      ...overrides,
    });
  if (response.status !== 200) {
    throw new Error(`invite failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return (response.body as { data: { id: number } }).data.id;
}

/**
 * A partner connected to the vendor, written straight into the tables: for adapter (integration)
 * tests that test the leads repository without the partners module's HTTP API.
 */
export async function insertConnectedPartner(app: NestFastifyApplication, vendorId: number): Promise<number> {
  const dataSource = app.get(DataSource);
  const now = new DatabaseDialect(dataSource).dateTime(new Date());
  const email = `${unique('partner')}@partner.test`;
  await dataSource.query(
    'INSERT INTO partners (company_name, contact_name, contact_email_address, created_at) VALUES (?, ?, ?, ?)',
    ['Partner', 'Pat', email, now],
  );
  const [row] = (await dataSource.query('SELECT id FROM partners WHERE contact_email_address = ?', [
    email,
  ])) as { id: number }[];
  const partnerId = Number(row!.id);
  await connectPartner(app, vendorId, partnerId);
  return partnerId;
}

/** Connects the vendor to the partner, with the copies the vendor's partner listing reads (X9). */
export async function connectPartner(
  app: NestFastifyApplication,
  vendorId: number,
  partnerId: number,
): Promise<void> {
  const dataSource = app.get(DataSource);
  await dataSource.query(
    `INSERT INTO vendor_partners (vendor_id, partner_id, created_at, partner_created_at, company_name_normalized,
        contact_email_normalized, partner_type)
      SELECT ?, id, ?, created_at, LOWER(company_name), LOWER(contact_email_address), type FROM partners WHERE id = ?`,
    [vendorId, new DatabaseDialect(dataSource).dateTime(new Date()), partnerId],
  );
}

/** A minimal valid create/replace body with an email no other test uses. */
export function leadBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: 'Ada',
    emailAddress: `${unique('lead')}@example.test`,
    companyName: 'Analytical Engines',
    ...overrides,
  };
}

export interface LeadJson {
  id: number;
  partnerId: number;
  firstName: string;
  emailAddress: string;
  approvalStatus: string;
  archived: boolean;
  isDuplicate: boolean;
  rejectComment: string | null;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** Creates a lead through the API (docs/api.md 5) and returns it; fails the test on anything but 200. */
export async function createLead(
  http: TestAgent,
  apiKey: string,
  partnerId: number,
  overrides: Record<string, unknown> = {},
): Promise<LeadJson> {
  const response = await http
    .post(`/api/v1/vendors/partners/${partnerId}/leads`)
    .set('X-API-KEY', apiKey)
    .send(leadBody(overrides));
  if (response.status !== 200) {
    throw new Error(`create lead failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return (response.body as { data: LeadJson }).data;
}

/** Rows of a table matching a condition, counted through the application's own DataSource. */
export async function countRows(
  app: NestFastifyApplication,
  table: 'leads' | 'contacts',
  where: string,
  params: unknown[],
): Promise<number> {
  const [row] = (await app
    .get(DataSource)
    .query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params)) as { n: number | string }[];
  return Number(row!.n);
}

/** Requests as one vendor: every path is relative to /api/v1/vendors and carries the vendor's key. */
export function vendorApi(http: TestAgent, apiKey: string) {
  const url = (path: string) => `/api/v1/vendors${path}`;
  return {
    get: (path: string) => http.get(url(path)).set('X-API-KEY', apiKey),
    post: (path: string) => http.post(url(path)).set('X-API-KEY', apiKey),
    put: (path: string) => http.put(url(path)).set('X-API-KEY', apiKey),
    patch: (path: string) => http.patch(url(path)).set('X-API-KEY', apiKey),
  };
}

export type VendorApi = ReturnType<typeof vendorApi>;

/** The `field` of every entry of a standard error body's `errors` (D18). */
export function errorFields(body: unknown): string[] {
  return ((body as { errors?: { field: string }[] }).errors ?? []).map((e) => e.field);
}

/** A new vendor with a partner of its own, and a request helper for that vendor. */
export interface VendorWithPartner {
  vendorId: number;
  apiKey: string;
  api: VendorApi;
  partnerId: number;
}

export async function vendorWithPartner(t: TestApp): Promise<VendorWithPartner> {
  const { vendorId, apiKey } = await createVendor(t.app);
  return { vendorId, apiKey, api: vendorApi(t.http, apiKey), partnerId: await invitePartner(t.http, apiKey) };
}
