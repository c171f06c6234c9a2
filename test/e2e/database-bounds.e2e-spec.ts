import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo, Server, Socket, createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mysql from 'mysql2/promise';
import BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { AppLogger } from '../../src/shared/logging.module';
import { CapturedLog } from '../support/captured-log';
import { TestApp, createTestApp, createVendor, isMysql, testDatabaseUrl, unique } from '../support/test-app';
import { VendorApi, invitePartner, leadBody, vendorApi } from '../support/lead-fixtures';

/**
 * docs/operations.md: every request that needs the database is answered within DATABASE_TIMEOUT_MS,
 * a busy database with 503 SERVICE_UNAVAILABLE and Retry-After, and the service serves normally
 * again once the cause ends, without a restart.
 */
const BOUND_MS = 1500;
const SLACK_MS = 1500;

async function timed<T>(fn: () => PromiseLike<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await fn();
  return { result, ms: Date.now() - started };
}

function expectUnavailable(response: { status: number; body: unknown; headers: Record<string, unknown> }) {
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

async function fixture(t: TestApp): Promise<{ api: VendorApi; partnerId: number; leadId: number }> {
  const { apiKey } = await createVendor(t.app);
  const api = vendorApi(t.http, apiKey);
  const partnerId = await invitePartner(t.http, apiKey);
  const created = await api
    .post(`/partners/${partnerId}/leads`)
    .send(leadBody({ emailAddress: `${unique('b')}@example.test` }));
  expect(created.status).toBe(200);
  return { api, partnerId, leadId: created.body.data.id };
}

(isMysql() ? describe : describe.skip)('[MySQL] bounded waits', () => {
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

(isMysql() ? describe : describe.skip)('[MySQL] a database that stops answering', () => {
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

describe('a SQLite file locked by another process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'prm-lock-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a write 503 within the bound while the other holds the lock, reads go on, and writes work after', async () => {
    const url = `sqlite:${join(dir, 'app.sqlite')}`;
    const log = new CapturedLog();
    const t = await createTestApp({
      env: { DATABASE_URL: url, DATABASE_TIMEOUT_MS: String(BOUND_MS) },
      override: (b) => b.overrideProvider(AppLogger).useValue(log.logger),
    });
    const other = new BetterSqlite3(url.slice('sqlite:'.length));
    try {
      const f = await fixture(t);
      other.exec('BEGIN IMMEDIATE');
      try {
        const { result, ms } = await timed(() => f.api.put(`/leads/${f.leadId}/archive`));
        expectUnavailable(result);
        expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
        expect((await f.api.get(`/leads/${f.leadId}`)).status).toBe(200);
        // docs/operations.md: a 503 is logged at warn with the request id, and nothing at error
        const lines = log.lines<{ level: number; msg: string; status?: number; reqId?: string }>();
        const answered = lines.filter((line) => line.msg === 'request completed' && line.status === 503);
        expect(answered).toEqual([
          expect.objectContaining({ level: 40, reqId: result.headers['x-request-id'] }),
        ]);
        expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      } finally {
        other.exec('ROLLBACK');
      }
      expect((await f.api.put(`/leads/${f.leadId}/archive`)).status).toBe(200);
    } finally {
      other.close();
      await t.close();
    }
  });
});
