import * as mysql from 'mysql2/promise';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { countRows, createLead, leadBody, vendorWithPartner } from '../support/lead-fixtures';
import { ServerProcess, ensureBuilt, startServer } from '../support/server-process';
import { TestApp, createTestApp, testDatabaseUrl, unique } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * X4, X5 across processes: two `node dist/main.js` on one MariaDB database share their keys through
 * the database, and a process killed while it holds a key leaves the key usable again once the
 * lease has passed (docs/idempotency.md). One process cannot share SQLite: the same rules are
 * shown in-process on both engines by idempotency.e2e-spec.ts.
 */
describe('[MySQL] Idempotency-Key across server processes', () => {
  let t: TestApp;
  let admin: mysql.Connection;
  const servers: ServerProcess[] = [];
  // a long database bound: the request the test holds on a row lock must still be waiting when it is killed
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    MANAGEMENT_PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_TIMEOUT_MS: '60000',
  };

  beforeAll(async () => {
    ensureBuilt(); // node scripts/build-if-needed.js
    t = await createTestApp();
    admin = await mysql.createConnection(testDatabaseUrl());
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await admin?.end();
    await t?.close();
  });

  const at = (server: ServerProcess, apiKey: string) => ({
    post: (path: string) => request(server.baseUrl).post(`/api/v1/vendors${path}`).set('X-API-KEY', apiKey),
    put: (path: string) => request(server.baseUrl).put(`/api/v1/vendors${path}`).set('X-API-KEY', apiKey),
  });

  /** Read through the test app's pool: `admin` sits in a transaction whose snapshot would hide the claim. */
  async function keyState(vendorId: number, key: string): Promise<string | undefined> {
    const rows: { state: string }[] = await t.app
      .get(DataSource)
      .query('SELECT state FROM idempotency_keys WHERE vendor_id = ? AND idempotency_key = ?', [
        vendorId,
        key,
      ]);
    return rows[0]?.state;
  }

  it('runs one of 12 identical requests sent to both processes at once; the others get 409 or the replay', async () => {
    for (let round = 0; round < 3; round++) {
      const v = await vendorWithPartner(t);
      const key = unique('both');
      const body = leadBody();
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          at(servers[i % 2]!, v.apiKey)
            .post(`/partners/${v.partnerId}/leads`)
            .set('Idempotency-Key', key)
            .send(body),
        ),
      );
      const ran = responses.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === undefined);
      const replayed = responses.filter(
        (r) => r.status === 200 && r.headers['idempotent-replayed'] === 'true',
      );
      const busy = responses.filter((r) => r.status === 409 && r.body.message === 'IDEMPOTENCY_KEY_IN_USE');
      expect(ran).toHaveLength(1);
      expect(ran.length + replayed.length + busy.length).toBe(12);
      for (const r of replayed) expect(r.text).toBe(ran[0]!.text);
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
      // after the dust settles, both processes replay the one answer
      for (const server of servers) {
        const again = await at(server, v.apiKey)
          .post(`/partners/${v.partnerId}/leads`)
          .set('Idempotency-Key', key)
          .send(body);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.text).toBe(ran[0]!.text);
      }
    }
  });

  it('a process killed (SIGKILL) while it holds a key: 409 until the lease has passed, then the retry runs once', async () => {
    const v = await vendorWithPartner(t);
    const lead = await createLead(t.http, v.apiKey, v.partnerId);
    const key = unique('crash');
    const [doomed, survivor] = servers as [ServerProcess, ServerProcess];
    await admin.query('BEGIN');
    await admin.query('SELECT id FROM leads WHERE id = ? FOR UPDATE', [lead.id]);
    let held: Promise<unknown> | undefined;
    try {
      // the request claims the key, then waits for the lead's row lock the test holds
      held = at(doomed, v.apiKey)
        .put(`/leads/${lead.id}/approve`)
        .set('Idempotency-Key', key)
        .then(
          (r) => r,
          (error: unknown) => error,
        );
      for (let i = 0; i < 200 && (await keyState(v.vendorId, key)) !== 'RUNNING'; i++) await sleep(25);
      expect(await keyState(v.vendorId, key)).toBe('RUNNING');
      expect(await doomed.stop('SIGKILL')).toBeNull();
    } finally {
      await admin.query('ROLLBACK');
    }
    // the connection died with the process: no answer
    const outcome = (await held) as { status?: number; message?: string };
    expect(outcome.status).toBeUndefined();
    expect(outcome.message).toMatch(/socket hang up|ECONNRESET/);
    const retry = () => at(survivor, v.apiKey).put(`/leads/${lead.id}/approve`).set('Idempotency-Key', key);

    const busy = await retry();
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(
      (await t.http.get(`/api/v1/vendors/leads/${lead.id}`).set('X-API-KEY', v.apiKey)).body.data
        .approvalStatus,
    ).toBe('PENDING');

    // the lease (here ten minutes: ten database bounds) has passed
    await admin.query(
      'UPDATE idempotency_keys SET lease_until = created_at WHERE vendor_id = ? AND idempotency_key = ?',
      [v.vendorId, key],
    );
    const ran = await retry();
    expect(ran.status).toBe(200);
    expect(ran.headers['idempotent-replayed']).toBeUndefined();
    expect(ran.body.data.lead.approvalStatus).toBe('APPROVED');
    expect(await countRows(t.app, 'contacts', 'lead_id = ?', [lead.id])).toBe(1);
    const again = await retry();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(ran.text);
    expect(await keyState(v.vendorId, key)).toBe('DONE');
  });
});
