import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument } from '../../src/shared/management/openapi';
import { TestApp, createTestApp, createVendor } from '../support/test-app';

type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; schema?: object; description?: string }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema?: object; example?: unknown; examples?: object }> }>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operationsOf(document: OpenAPIObject): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((m) => [path, m, (item as Record<string, Operation>)[m]!] as [string, string, Operation]),
  );
}

/** The OpenAPI document describes every operation of the public API completely (docs/api.md). */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    t = await createTestApp();
    document = openApiDocument(t.app);
  });
  afterAll(() => t.close());

  it('lists the twelve operations of the contract under readable operation ids', () => {
    const ids = operationsOf(document).map(([, , op]) => op.operationId).sort();
    expect(ids).toEqual(
      expect.arrayContaining([
        'addPartnerUsers',
        'approveLead',
        'archiveLead',
        'createLead',
        'getLead',
        'invitePartner',
        'listLeads',
        'listPartnerUsers',
        'reinvitePartner',
        'rejectLead',
        'replaceLead',
        'updateLead',
      ]),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists the reads of X9-X12 with their operation ids, tags and query parameters; Partner.users is nullable', () => {
    const byId: Record<string, { path: string; method: string; op: Operation }> = Object.fromEntries(
      operationsOf(document).map(([path, method, op]) => [op.operationId, { path, method, op }]),
    );
    const reads = ['listPartners', 'getPartner', 'getLeadOptions', 'getLeadHistory'];
    expect(reads.map((id) => [id, byId[id]?.method, byId[id]?.path, byId[id]?.op.tags])).toEqual([
      ['listPartners', 'get', '/api/v1/vendors/partners', ['Partners']],
      ['getPartner', 'get', '/api/v1/vendors/partners/{partnerId}', ['Partners']],
      ['getLeadOptions', 'get', '/api/v1/vendors/lead-options', ['Vendor']],
      ['getLeadHistory', 'get', '/api/v1/vendors/leads/{leadId}/history', ['Leads']],
    ]);
    expect(document.tags?.map((tag) => tag.name)).toEqual(expect.arrayContaining(['Partners', 'Leads', 'Vendor']));
    const parameters = byId.listPartners!.op.parameters ?? [];
    const query = Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    expect(Object.keys(query).sort()).toEqual(['keyword', 'page', 'perPage', 'sortBy', 'sortDirection', 'type']);
    expect(query.sortBy).toMatchObject({ enum: ['createdAt', 'companyName', 'id'], default: 'createdAt' });
    expect(query.sortDirection).toMatchObject({ enum: ['asc', 'desc'], default: 'desc' });
    expect(query.type).toMatchObject({ enum: ['RESELLER', 'DISTRIBUTOR'] });
    expect(query.keyword).toMatchObject({ type: 'string', maxLength: 255 });
    const schemas = document.components!.schemas as Record<string, { properties: Record<string, object>; required?: string[] }>;
    expect(schemas.Partner!.properties.users).toMatchObject({ type: 'array', nullable: true });
    expect(schemas.Partner!.required).toContain('users');
    expect(schemas.LeadHistoryEntry!.required).toHaveLength(8);
    expect(schemas.LeadOptions!.required?.sort()).toEqual(['sources', 'statuses']);
  });

  it('gives each operation a tag, a summary, a description of its rules and the API-key scheme', () => {
    expect(document.components?.securitySchemes?.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-KEY' });
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.servers?.length).toBeGreaterThan(0);
    for (const [path, method, op] of operationsOf(document)) {
      const where = `${method} ${path}`;
      expect([where, op.tags?.length]).toEqual([where, 1]);
      expect([where, (op.summary ?? '').length > 5]).toEqual([where, true]);
      expect([where, (op.description ?? '').length > 40]).toEqual([where, true]);
    }
  });

  it('gives info.version as the version of package.json', () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(document.info.version).toBe(version);
  });

  it.each([
    [{ HOST: '0.0.0.0', PORT: '4321' }, 'http://localhost:4321'],
    [{ HOST: '::', PORT: '8080' }, 'http://localhost:8080'],
    [{ HOST: '127.0.0.2', PORT: '3000' }, 'http://127.0.0.2:3000'],
    [{ HOST: '::1', PORT: '3000' }, 'http://[::1]:3000'],
  ])('lists the server of its configuration %j, before it listens, as %s', async (env, url) => {
    const other = await createTestApp({ env });
    try {
      expect(openApiDocument(other.app).servers).toEqual([{ url, description: expect.any(String) }]);
    } finally {
      await other.close();
    }
  });

  it('lists the port it listens on once it listens (PORT=0: the port it was given)', async () => {
    const other = await createTestApp({ env: { HOST: '127.0.0.1', PORT: '0' } });
    try {
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = other.app.getHttpServer().address() as { port: number };
      expect(openApiDocument(other.app).servers?.[0]?.url).toBe(`http://127.0.0.1:${port}`);
    } finally {
      await other.close();
    }
  });

  it('documents every path parameter as a positive integer', () => {
    for (const [path, method, op] of operationsOf(document)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const documented = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect([method, path, documented.map((p) => p.name)]).toEqual([method, path, inPath]);
      for (const p of documented) expect(p.schema).toMatchObject({ type: 'integer', minimum: 1 });
    }
  });

  it('documents the query parameters of both listings with their bounds and defaults', () => {
    const leads = document.paths['/api/v1/vendors/partners/{partnerId}/leads']!.get as unknown as Operation;
    const query = Object.fromEntries((leads.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    expect(Object.keys(query).sort()).toEqual(
      ['approvalStatus', 'archived', 'createdAtAfter', 'createdAtBefore', 'keyword', 'page', 'perPage', 'sortBy', 'sortDirection', 'source', 'status'],
    );
    expect(query.perPage).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(query.page).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(query.status).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(query.approvalStatus).toMatchObject({ enum: ['PENDING', 'APPROVED', 'REJECTED'] });
    expect(query.createdAtAfter).toMatchObject({ type: 'string', format: 'date' });
    const users = document.paths['/api/v1/vendors/partners/{partnerId}/users']!.get as unknown as Operation;
    const userQuery = Object.fromEntries((users.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    expect(userQuery.sortBy).toMatchObject({
      enum: ['id', 'firstName', 'lastName', 'emailAddress', 'jobTitle', 'createdAt'],
      default: 'id',
    });
    expect(userQuery.perPage).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
  });

  it('describes every body field with its type, limits, format, enum, nullability and whether it is required', () => {
    const schemas = document.components!.schemas as Record<string, { properties: Record<string, object>; required?: string[] }>;
    const lead = schemas.LeadRequest!;
    expect(lead.required?.sort()).toEqual(['companyName', 'emailAddress', 'firstName']);
    expect(lead.properties.emailAddress).toMatchObject({ type: 'string', format: 'email', maxLength: 255 });
    expect(lead.properties.productsInterested).toMatchObject({ type: 'string', nullable: true, maxLength: 5000 });
    expect(lead.properties.leadAge).toMatchObject({ type: 'integer', nullable: true, minimum: 0 });
    expect(lead.properties.source).toMatchObject({ type: 'integer', nullable: true, minimum: 1 });
    expect(Object.keys(lead.properties)).toHaveLength(19); // the writable fields of a lead
    expect(schemas.LeadPatchRequest!.required ?? []).toEqual([]);
    const invite = schemas.InvitePartnerRequest!;
    expect(invite.required?.sort()).toEqual(['companyName', 'contactEmailAddress', 'contactName']);
    expect(invite.properties.type).toMatchObject({ enum: ['RESELLER', 'DISTRIBUTOR', null], nullable: true });
    expect(invite.properties.users).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
    expect(schemas.Lead!.required).toHaveLength(Object.keys(schemas.Lead!.properties).length);
  });

  it('lists for each operation its 200 envelope and every error status, each with an example', () => {
    for (const [path, method, op] of operationsOf(document)) {
      const statuses = Object.keys(op.responses).sort();
      expect(statuses).toEqual(expect.arrayContaining(['200', '401', '500', '503']));
      if (path.includes('{')) expect(statuses).toEqual(expect.arrayContaining(['400', '404']));
      if (method !== 'get' && method !== 'delete') expect(statuses).toEqual(expect.arrayContaining(['400', '413']));
      expect(statuses).not.toContain('201');
      for (const [status, response] of Object.entries(op.responses)) {
        const media = response.content?.['application/json'];
        expect([method, path, status, media?.example !== undefined || media?.examples !== undefined]).toEqual([
          method,
          path,
          status,
          true,
        ]);
      }
    }
    const approve = document.paths['/api/v1/vendors/leads/{leadId}/approve']!.put as unknown as Operation;
    expect(Object.keys(approve.responses)).toContain('409');
  });

  it('checks real responses against itself, and notices one that breaks it', async () => {
    const { apiKey } = await createVendor(t.app);
    const before = t.contract.checked;
    await t.http.get('/api/v1/vendors/leads/123456789').set('X-API-KEY', apiKey).expect(404);
    await t.http.get('/api/v1/vendors/leads/abc').set('X-API-KEY', apiKey).expect(400);
    await t.http.get('/api/v1/vendors/leads/1').set('X-API-KEY', 'wrong').expect(401);
    expect(t.contract.checked).toBe(before + 3);
    expect(t.contract.failures).toEqual([]);

    const route = '/api/v1/vendors/leads/:leadId';
    const timestamp = new Date().toISOString();
    t.contract.check('GET', route, 200, JSON.stringify({ success: true, message: null, data: { id: 'x' }, timestamp }));
    t.contract.check('GET', route, 418, JSON.stringify({}));
    t.contract.check(
      'GET',
      route,
      404,
      JSON.stringify({ message: 'RESOURCE_NOT_FOUND', status: 404, success: false, errors: [], timestamp, extra: 1 }),
    );
    expect(t.contract.failures).toHaveLength(3);
    expect(t.contract.failures[1]).toContain('does not list this status');
    expect(t.contract.failures[2]).toContain('additional properties');
    t.contract.failures.length = 0; // the three were made on purpose
  });
});
