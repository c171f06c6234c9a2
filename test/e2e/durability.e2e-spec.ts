import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { invitePartner, leadBody, vendorApi } from '../support/lead-fixtures';
import { TestApp, createTestApp, createVendor, unique } from '../support/test-app';

/**
 * A 200 means committed and durable (docs/operations.md), on SQLite after the errors that end a
 * transaction on their own or leave it open: a full disk, a COMMIT refused.
 */
describe('acknowledged writes after database errors (SQLite)', () => {
  let dir: string;
  let url: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'prm-durable-'));
    url = `sqlite:${join(dir, 'app.sqlite')}`;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const writer = (t: TestApp) =>
    (t.app.get(DataSource).driver as unknown as { databaseConnection: BetterSqlite3.Database })
      .databaseConnection;

  it('answers 500 while the disk is full, 200 once there is room, and keeps every 200 across a restart', async () => {
    const apps: TestApp[] = [];
    const open = async () => {
      const app = await createTestApp({ env: { DATABASE_URL: url } });
      apps.push(app);
      return app;
    };
    try {
      await scenario(open);
    } finally {
      await Promise.all(apps.map((app) => app.close().catch(() => undefined)));
    }
  });

  async function scenario(open: () => Promise<TestApp>): Promise<void> {
    let t = await open();
    const { apiKey } = await createVendor(t.app);
    let api = vendorApi(t.http, apiKey);
    const partnerId = await invitePartner(t.http, apiKey);
    const outboxBefore = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM mail_outbox')) as {
      n: number;
    }[];

    const pages = Number(writer(t).pragma('page_count', { simple: true }));
    writer(t).pragma(`max_page_count = ${pages + 2}`);
    const acknowledged: number[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const response = await api
        .post(`/partners/${partnerId}/leads`)
        .send(
          leadBody({ emailAddress: `${unique('full')}@example.test`, productsInterested: 'x'.repeat(4000) }),
        );
      statuses.push(response.status);
      if (response.status === 200) acknowledged.push(response.body.data.id);
      else {
        expect(response.status).toBe(500);
        expect(response.body).toEqual({
          message: 'INTERNAL_SERVER_ERROR',
          status: 500,
          success: false,
          errors: [],
          timestamp: expect.any(String),
        });
      }
    }
    expect(statuses).toContain(500);
    writer(t).pragma(`max_page_count = ${Number(writer(t).pragma('page_count', { simple: true }))}`);
    const invite = await api.post('/partners').send({
      companyName: 'Full',
      contactName: 'Disk',
      contactEmailAddress: `${unique('full')}@example.test`,
      description: 'd'.repeat(5000),
    });
    expect(invite.status).toBe(500);

    writer(t).pragma('max_page_count = 1073741823');
    for (let i = 0; i < 5; i++) {
      const response = await api
        .post(`/partners/${partnerId}/leads`)
        .send(leadBody({ emailAddress: `${unique('room')}@example.test` }));
      expect(response.status).toBe(200);
      acknowledged.push(response.body.data.id);
    }
    expect(writer(t).inTransaction).toBe(false);
    await t.close();

    t = await open();
    api = vendorApi(t.http, apiKey);
    for (const id of acknowledged) expect((await api.get(`/leads/${id}`)).status).toBe(200);
    const [stored] = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM leads')) as {
      n: number;
    }[];
    expect(Number(stored!.n)).toBe(acknowledged.length);
    const [outbox] = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM mail_outbox')) as {
      n: number;
    }[];
    expect(Number(outbox!.n)).toBe(Number(outboxBefore[0]!.n)); // no email for the invite that failed
    const list = await api.get(`/partners/${partnerId}/leads?perPage=1`);
    expect(list.body.data.totalItems).toBe(acknowledged.length);
  }
});
