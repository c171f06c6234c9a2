import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  LeadJson,
  VendorWithPartner,
  createLead,
  invitePartner,
  vendorWithPartner,
} from '../support/lead-fixtures';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { ensureBuilt } from '../support/server-process';
import { TestApp, createLeadOption, createTestApp, unique } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

interface Answer {
  status: number;
  body: { success: boolean; message: string | null; data?: unknown; [field: string]: unknown };
}

/**
 * bench/floor-server.js (docs/performance.md "The engine floor") runs the service's own statements
 * for a create and a page of leads on the service's SQLite file, written out again in plain
 * JavaScript. These checks fail when the schema or the Lead's shape moves away from it: what it
 * answers must be what the service answers, and what it writes must be what the service reads.
 */
describe('bench/floor-server.js on a SQLite file of the service', () => {
  let scratch: ScratchDatabase;
  let t: TestApp;
  let v: VendorWithPartner;
  let status: number;
  let floor: ChildProcess;
  let floorUrl: string;

  /** A request to the floor, with the vendor's key, as the benchmark sends it. */
  async function atFloor(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${floorUrl}/api/v1/vendors${path}`, {
      method,
      headers: {
        'X-API-KEY': v.apiKey,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  /** The bench's create body (bench/bench.js, scenario create-lead). */
  const benchBody = () => ({
    firstName: 'Load1',
    lastName: 'Bench',
    emailAddress: `${unique('load')}@bench.example`,
    companyName: 'Load Co',
    status,
  });

  beforeAll(async () => {
    ensureBuilt(); // the floor folds case with dist/'s foldCase
    scratch = await createScratchDatabase();
    t = await createTestApp({ env: { DATABASE_URL: scratch.url } });
    v = await vendorWithPartner(t);
    status = await createLeadOption(t.app, v.vendorId, 'status', 'New');
    floor = spawn(process.execPath, [join(ROOT, 'bench', 'floor-server.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        FLOOR_DATABASE: scratch.url.slice('sqlite:'.length),
        FLOOR_API_KEY: v.apiKey,
        FLOOR_VENDOR_ID: String(v.vendorId),
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [first] = (await once(createInterface({ input: floor.stdout! }), 'line')) as [string];
    floorUrl = `http://127.0.0.1:${(JSON.parse(first) as { port: number }).port}`;
  }, 60_000);
  afterAll(async () => {
    if (floor && floor.exitCode === null) {
      const exited = once(floor, 'exit');
      floor.kill('SIGTERM');
      await exited;
    }
    await t?.close();
    await scratch?.drop();
  });

  it('creates a lead the service then reads as its own, with its history entry and its count', async () => {
    const created = await atFloor('POST', `/partners/${v.partnerId}/leads`, benchBody());
    expect(created.status).toBe(200);
    const byService = await v.api.post(`/partners/${v.partnerId}/leads`).send(benchBody());
    expect(Object.keys(created.body).sort()).toEqual(Object.keys(byService.body).sort());
    expect(created.body.message).toBe(byService.body.message); // LEAD_CREATE_SUCCESSFUL
    const lead = created.body.data as LeadJson;

    const read = await v.api.get(`/leads/${lead.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(lead);
    const history = await v.api.get(`/leads/${lead.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((entry: { action: string }) => entry.action)).toEqual(['CREATED']);
    const listed = await v.api.get(`/partners/${v.partnerId}/leads?approvalStatus=PENDING`);
    expect(listed.body.data.totalItems).toBe(listed.body.data.data.length);
    expect(listed.body.data.data.map((l: LeadJson) => l.id)).toContain(lead.id);
  });

  it('answers a page exactly as the service does: the same leads, fields, order and totalItems', async () => {
    const byService = await createLead(t.http, v.apiKey, v.partnerId, { status, city: 'Lyon', leadAge: 3 });
    expect((await atFloor('POST', `/partners/${v.partnerId}/leads`, benchBody())).status).toBe(200);

    const floorPage = await atFloor('GET', `/partners/${v.partnerId}/leads?perPage=50`);
    const servicePage = await v.api.get(`/partners/${v.partnerId}/leads?perPage=50`);
    expect(floorPage.status).toBe(200);
    expect(floorPage.body.data).toEqual(servicePage.body.data);
    expect((floorPage.body.data as { data: LeadJson[] }).data.map((l) => l.id)).toContain(byService.id);
  });

  it("sees a contact's email as a duplicate (D28), as the service does, on the create and on the page", async () => {
    const emailAddress = `${unique('contact')}@bench.example`;
    const converted = await createLead(t.http, v.apiKey, v.partnerId, { emailAddress });
    await v.api.put(`/leads/${converted.id}/approve`).send({}).expect(200);
    await v.api.put(`/leads/${converted.id}/archive`).send({}).expect(200); // no active lead has it now
    const otherPartner = await invitePartner(t.http, v.apiKey);

    const created = await atFloor('POST', `/partners/${otherPartner}/leads`, {
      ...benchBody(),
      emailAddress,
    });
    expect(created.status).toBe(200);
    const lead = created.body.data as LeadJson;
    expect(lead.isDuplicate).toBe(true);
    expect((await v.api.get(`/leads/${lead.id}`)).body.data.isDuplicate).toBe(true);
    const floorPage = await atFloor('GET', `/partners/${otherPartner}/leads`);
    expect((floorPage.body.data as { data: LeadJson[] }).data.map((l) => [l.id, l.isDuplicate])).toEqual([
      [lead.id, true],
    ]);
  });

  it("refuses in the service's order and shape: the status before the partner (D37), an unconnected partner on the list", async () => {
    const stranger = v.partnerId + 1000;
    const floorCreate = await atFloor('POST', `/partners/${stranger}/leads`, {
      ...benchBody(),
      status: status + 1000,
    });
    const serviceCreate = await v.api
      .post(`/partners/${stranger}/leads`)
      .send({ ...benchBody(), status: status + 1000 });
    expect([floorCreate.status, floorCreate.body.message]).toEqual([400, 'VALIDATION_FAILED']);
    expect([serviceCreate.status, serviceCreate.body.message]).toEqual([400, 'VALIDATION_FAILED']);
    expect(Object.keys(floorCreate.body).sort()).toEqual(Object.keys(serviceCreate.body).sort());

    const floorList = await atFloor('GET', `/partners/${stranger}/leads`);
    const serviceList = await v.api.get(`/partners/${stranger}/leads`);
    expect([floorList.status, floorList.body.message]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    expect([serviceList.status, serviceList.body.message]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    expect(Object.keys(floorList.body).sort()).toEqual(Object.keys(serviceList.body).sort());
  });

  it('refuses what the service refuses on the way: a taken email, an unknown status, a partner not connected', async () => {
    const body = benchBody();
    expect((await atFloor('POST', `/partners/${v.partnerId}/leads`, body)).status).toBe(200);
    const again = await atFloor('POST', `/partners/${v.partnerId}/leads`, { ...body, firstName: 'Other' });
    expect(again).toEqual({ status: 400, body: expect.objectContaining({ message: 'DUPLICATE_ENTRY' }) });
    const badStatus = await atFloor('POST', `/partners/${v.partnerId}/leads`, {
      ...benchBody(),
      status: status + 1000,
    });
    expect(badStatus).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'VALIDATION_FAILED' }),
    });
    const stranger = await atFloor('POST', `/partners/${v.partnerId + 1000}/leads`, benchBody());
    expect(stranger).toEqual({
      status: 404,
      body: expect.objectContaining({ message: 'RESOURCE_NOT_FOUND' }),
    });

    // none of the three wrote anything: the service counts only the leads that were answered 200
    const listed = await v.api.get(`/partners/${v.partnerId}/leads?perPage=100`);
    const emails = listed.body.data.data.map((l: LeadJson) => l.emailAddress);
    expect(emails.filter((email: string) => email === body.emailAddress)).toHaveLength(1);
    expect(listed.body.data.totalItems).toBe(listed.body.data.data.length);
  });

  it('refuses a request without the key, as the ceiling does', async () => {
    const response = await fetch(`${floorUrl}/api/v1/vendors/partners/${v.partnerId}/leads`);
    expect(response.status).toBe(401);
  });
});
