import request from 'supertest';
import { countRows, createLead, vendorWithPartner } from '../support/lead-fixtures';
import { ServerProcess, ensureBuilt, startServer } from '../support/server-process';
import { TestApp, createTestApp, testDatabaseUrl } from '../support/test-app';

/** D32 across two server processes: on MySQL the row lock decides, whichever process holds it. */
describe('[MySQL] leads under concurrent requests to two server processes on one database', () => {
  let t: TestApp;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ensureBuilt(); // node scripts/build-if-needed.js
    const env = { DATABASE_URL: testDatabaseUrl(), MANAGEMENT_PORT: '0', LOG_LEVEL: 'warn' };
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await t?.close();
  });

  it('[MySQL] 20 approves split across both processes create one contact (D32)', async () => {
    const v = await vendorWithPartner(t);
    const lead = await createLead(t.http, v.apiKey, v.partnerId);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(servers[i % 2]!.baseUrl)
          .put(`/api/v1/vendors/leads/${lead.id}/approve`)
          .set('X-API-KEY', v.apiKey),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r.body.data.contactId)).size).toBe(1);
    expect(await countRows(t.app, 'contacts', 'lead_id = ?', [lead.id])).toBe(1);
  });
});
