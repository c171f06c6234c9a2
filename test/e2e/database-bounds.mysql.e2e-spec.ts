import { AddressInfo, Server, Socket, createServer, connect } from 'node:net';
import * as mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { BOUND_MS, SLACK_MS, expectUnavailable, fixture, timed } from '../support/database-bounds';
import { VendorApi } from '../support/lead-fixtures';
import { TestApp, createTestApp, testDatabaseUrl, unique } from '../support/test-app';

// MySQL/MariaDB only: run by `npm run test:mysql` (jest.config.js picks the files of the engine under test).

describe('[MySQL] bounded waits', () => {
  let t: TestApp;
  let admin: mysql.Connection;
  let f: { api: VendorApi; partnerId: number; leadId: number };

  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_TIMEOUT_MS: String(BOUND_MS) } });
    admin = await mysql.createConnection(testDatabaseUrl());
    f = await fixture(t);
  });
  afterAll(async () => {
    await admin.end();
    await t.close();
  });

  it('answers 503 when another session holds the lead row, reads go on, and the write works once it is released', async () => {
    await admin.query('BEGIN');
    await admin.query('SELECT id FROM leads WHERE id = ? FOR UPDATE', [f.leadId]);
    try {
      const { result, ms } = await timed(() => f.api.put(`/leads/${f.leadId}/approve`));
      expectUnavailable(result);
      expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
      expect((await f.api.get(`/leads/${f.leadId}`)).status).toBe(200);
    } finally {
      await admin.query('ROLLBACK');
    }
    expect((await f.api.put(`/leads/${f.leadId}/approve`)).status).toBe(200);
  });

  it('answers 503 within the bound under a table lock, while other tables and wrong keys are served at once', async () => {
    await admin.query('LOCK TABLES leads WRITE');
    try {
      const { result, ms } = await timed(() => f.api.get(`/leads/${f.leadId}`));
      expectUnavailable(result);
      expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
      expect((await f.api.get(`/partners/${f.partnerId}/users`)).status).toBe(200);
      const wrong = await timed(() =>
        t.http.get(`/api/v1/vendors/leads/${f.leadId}`).set('X-API-KEY', `prm_${unique('wrong')}`),
      );
      expect(wrong.result.status).toBe(401);
      expect(wrong.ms).toBeLessThan(500);
    } finally {
      await admin.query('UNLOCK TABLES');
    }
    expect((await f.api.get(`/leads/${f.leadId}`)).status).toBe(200);
  });

  it('answers 503 within the bound when every pooled connection is taken, and refuses a wrong key at once', async () => {
    const pool = (
      t.app.get(DataSource).driver as unknown as {
        pool: { getConnection(cb: (e: Error | null, c: { release(): void }) => void): void };
      }
    ).pool;
    const held = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<{ release(): void }>((resolve, reject) =>
            pool.getConnection((e, c) => (e ? reject(e) : resolve(c))),
          ),
      ),
    );
    try {
      const { result, ms } = await timed(() => f.api.get(`/leads/${f.leadId}`));
      expectUnavailable(result);
      expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
      const wrong = await timed(() =>
        t.http.get(`/api/v1/vendors/leads/${f.leadId}`).set('X-API-KEY', `prm_${unique('wrong')}`),
      );
      expect(wrong.result.status).toBe(401);
      expect(wrong.ms).toBeLessThan(500);
    } finally {
      for (const connection of held) connection.release();
    }
    expect((await f.api.get(`/leads/${f.leadId}`)).status).toBe(200);
  });
});

/** A TCP proxy in front of the database that can stop forwarding (holding the bytes) and resume. */
class StallingProxy {
  private server!: Server;
  private stalled = false;
  private readonly held: (() => void)[] = [];
  private readonly sockets = new Set<Socket>();
  port = 0;

  async start(host: string, port: number): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(port, host);
      this.sockets.add(client).add(upstream);
      const pipe = (from: Socket, to: Socket) =>
        from.on('data', (chunk) => {
          if (this.stalled) this.held.push(() => to.write(chunk));
          else to.write(chunk);
        });
      pipe(client, upstream);
      pipe(upstream, client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('close', close).on('error', close);
      upstream.on('close', close).on('error', close);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('[MySQL] a database that stops answering', () => {
  it('answers 503 within the bound while the network holds every packet, and serves again once it flows', async () => {
    const proxy = new StallingProxy();
    const direct = new URL(testDatabaseUrl());
    await proxy.start(direct.hostname, Number(direct.port || 3306));
    const url = new URL(direct.href);
    url.host = `127.0.0.1:${proxy.port}`;
    const t = await createTestApp({ env: { DATABASE_URL: url.href, DATABASE_TIMEOUT_MS: String(BOUND_MS) } });
    try {
      const f = await fixture(t);
      proxy.stall();
      const { result, ms } = await timed(() => f.api.get(`/leads/${f.leadId}`));
      expectUnavailable(result);
      expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
      const write = await timed(() => f.api.put(`/leads/${f.leadId}/archive`));
      expectUnavailable(write.result);
      expect(write.ms).toBeLessThan(BOUND_MS + SLACK_MS);
      proxy.resume();
      let status = 0;
      for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
        status = (await f.api.get(`/leads/${f.leadId}`)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status).toBe(200);
      expect((await f.api.put(`/leads/${f.leadId}/reject`).send({ comment: 'after' })).status).toBe(200);
    } finally {
      await t.close();
      await proxy.stop();
    }
  });
});
