import { type PartnerClient, type Schemas, createPartnerClient } from '../../clients/typescript/index';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { ServerProcess, createVendorWithCli, ensureBuilt, startServer } from '../support/server-process';


/**
 * Checked by `npm run typecheck`, never run: each @ts-expect-error fails the type-check when its line
 * stops being an error, so a client whose types fell back to `any` (or a document without bodies)
 * does not pass.
 */
export async function typesThatMustNotCompile(client: PartnerClient): Promise<void> {
  await client.POST('/api/v1/vendors/partners/{partnerId}/leads', {
    params: { path: { partnerId: 1 } },
    // @ts-expect-error companyName is required (D13)
    body: { firstName: 'Maria', emailAddress: 'maria@alfreds.example' },
  });
  // @ts-expect-error the path needs its leadId
  await client.GET('/api/v1/vendors/leads/{leadId}', {});
  // @ts-expect-error no such operation
  await client.DELETE('/api/v1/vendors/leads/{leadId}', { params: { path: { leadId: 1 } } });
  const { data } = await client.GET('/api/v1/vendors/leads/{leadId}', { params: { path: { leadId: 1 } } });
  // @ts-expect-error approvalStatus is PENDING, APPROVED or REJECTED
  expect(data?.data.approvalStatus === 'DONE').toBe(false);
}

/** clients/typescript against the built server, as an integrator would use it (docs/api-reference.md). */
describe('typed TypeScript client against node dist/main.js', () => {
  let scratch: ScratchDatabase;
  let server: ServerProcess;
  let client: PartnerClient;

  beforeAll(async () => {
    ensureBuilt();
    scratch = await createScratchDatabase();
    const { apiKey } = createVendorWithCli(scratch.url, 'Acme');
    server = await startServer({ DATABASE_URL: scratch.url, LOG_LEVEL: 'warn' });
    client = createPartnerClient({ baseUrl: server.baseUrl, apiKey });
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await scratch?.drop();
  });

  it('invites a partner, then creates, lists and approves its lead, every answer typed', async () => {
    const invited = await client.POST('/api/v1/vendors/partners', {
      body: {
        companyName: 'Northwind',
        contactName: 'Nancy Davolio',
        contactEmailAddress: 'nancy@northwind.example',
        type: 'RESELLER',
      },
    });
    expect(invited.error).toBeUndefined();
    expect(invited.data).toMatchObject({ success: true, message: 'PARTNER_INVITE_SUCCESSFUL' });
    const partner: Schemas['Partner'] = invited.data!.data;
    expect(partner.users?.map((user) => user.emailAddress)).toEqual(['nancy@northwind.example']);

    const created = await client.POST('/api/v1/vendors/partners/{partnerId}/leads', {
      params: { path: { partnerId: partner.id } },
      body: {
        firstName: 'Maria',
        lastName: 'Anders',
        emailAddress: 'maria@alfreds.example',
        companyName: 'Alfreds Futterkiste',
      },
    });
    expect(created.error).toBeUndefined();
    expect(created.data!.message).toBe('LEAD_CREATE_SUCCESSFUL');
    const lead: Schemas['Lead'] = created.data!.data;
    expect(lead).toMatchObject({ partnerId: partner.id, firstName: 'Maria', approvalStatus: 'PENDING' });

    const listed = await client.GET('/api/v1/vendors/partners/{partnerId}/leads', {
      params: { path: { partnerId: partner.id }, query: { keyword: 'mar', perPage: 10 } },
    });
    expect(listed.error).toBeUndefined();
    const page = listed.data!.data;
    expect({
      ids: page.data.map((item) => item.id),
      perPage: page.perPage,
      totalItems: page.totalItems,
    }).toEqual({
      ids: [lead.id],
      perPage: 10,
      totalItems: 1,
    });

    const approved = await client.PUT('/api/v1/vendors/leads/{leadId}/approve', {
      params: { path: { leadId: lead.id } },
    });
    expect(approved.error).toBeUndefined();
    expect(approved.data!.message).toBe('LEAD_APPROVE_SUCCESSFUL');
    expect(approved.data!.data.lead).toMatchObject({ id: lead.id, approvalStatus: 'APPROVED' });
    expect(approved.data!.data.contactId).toEqual(expect.any(Number));

    const read = await client.GET('/api/v1/vendors/leads/{leadId}', {
      params: { path: { leadId: lead.id } },
    });
    expect(read.data!.data.approvalStatus).toBe('APPROVED');
  });

  it('reads a 404 as the typed error body, with no data', async () => {
    const { data, error, response } = await client.GET('/api/v1/vendors/leads/{leadId}', {
      params: { path: { leadId: 999_999 } },
    });
    expect(response.status).toBe(404);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ success: false, message: 'RESOURCE_NOT_FOUND', status: 404, errors: [] });
  });

  it('reads VALIDATION_FAILED with the offending fields (D18)', async () => {
    const { error, response } = await client.POST('/api/v1/vendors/partners/{partnerId}/leads', {
      params: { path: { partnerId: 1 } },
      body: { firstName: 'Maria', emailAddress: 'not an address', companyName: 'Alfreds Futterkiste' },
    });
    expect(response.status).toBe(400);
    // The 400 body is the standard error shape; its `errors` name the fields.
    if (!error || !('errors' in error))
      throw new Error(`expected the error shape, got ${JSON.stringify(error)}`);
    expect(error.message).toBe('VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.field)).toEqual(['emailAddress']);
  });

  it('reads a refused key as the authentication error shape (D7)', async () => {
    const stranger = createPartnerClient({ baseUrl: server.baseUrl, apiKey: 'prm_not-a-key' });
    const { error, response } = await stranger.GET('/api/v1/vendors/leads/{leadId}', {
      params: { path: { leadId: 1 } },
    });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ success: false, message: 'INVALID_API_KEY', data: null });
  });
});
