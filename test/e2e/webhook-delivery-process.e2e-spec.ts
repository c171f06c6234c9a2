import { execFileSync } from 'node:child_process';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import * as mysql from 'mysql2/promise';
import request from 'supertest';
import { invitePartner, leadBody } from '../support/lead-fixtures';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { SERVICE_NODE, ServerProcess, ensureBuilt, startServer } from '../support/server-process';

const ROOT = join(__dirname, '..', '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Delivery {
  id: number;
  eventId: string;
  status: string;
  attempts: number;
  lastResponseStatus: number | null;
}

function createKey(databaseUrl: string): string {
  const stdout = execFileSync(
    SERVICE_NODE,
    [join(ROOT, 'dist', 'cli.js'), 'vendors:create', '--name', 'Acme'],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    },
  );
  return (JSON.parse(stdout) as { apiKey: string }).apiKey;
}

/** One statement on the scratch database, outside the servers (the test's stand-in for time passing). */
async function execute(databaseUrl: string, sql: string): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new BetterSqlite3(databaseUrl.slice('sqlite:'.length));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(sql).run();
    } finally {
      db.close();
    }
    return;
  }
  const connection = await mysql.createConnection(databaseUrl);
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

/** A real receiver on 127.0.0.1 whose answers the test decides per request. */
async function startReceiver(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume(); // the body is not needed: `webhook-id` is a header
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const api = (server: ServerProcess, apiKey: string) => ({
  get: (path: string) => request(server.baseUrl).get(`/api/v1/vendors${path}`).set('X-API-KEY', apiKey),
  post: (path: string) => request(server.baseUrl).post(`/api/v1/vendors${path}`).set('X-API-KEY', apiKey),
});

async function deliveries(server: ServerProcess, apiKey: string, hookId: number): Promise<Delivery[]> {
  const response = await api(server, apiKey).get(`/webhooks/${hookId}/deliveries`);
  expect(response.status).toBe(200);
  return response.body.data as Delivery[];
}

/** Polls the delivery log until `done` holds; a generous deadline, no assertion on speed. */
async function waitFor(
  read: () => Promise<Delivery[]>,
  done: (rows: Delivery[]) => boolean,
): Promise<Delivery[]> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const rows = await read();
    if (done(rows) || Date.now() > deadline) return rows;
    await sleep(250);
  }
}

const serverEnv = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
});

/**
 * X18 against the built server (node dist/main.js), docs/webhooks.md "At least once": a process
 * killed between sending and recording leaves the delivery to be sent again, with the same
 * `webhook-id`, once its lease has passed; and two processes on one database never have one
 * delivery in flight twice at once (on either engine).
 */
describe('webhook delivery across server processes (X18)', () => {
  const started: ServerProcess[] = [];
  const scratches: ScratchDatabase[] = [];
  const receivers: { stop(): Promise<void> }[] = [];

  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.stop('SIGKILL')));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
    await Promise.all(scratches.splice(0).map((scratch) => scratch.drop()));
  });

  async function scratchWithKey(): Promise<{ url: string; apiKey: string }> {
    const scratch = await createScratchDatabase();
    scratches.push(scratch);
    return { url: scratch.url, apiKey: createKey(scratch.url) };
  }

  async function start(databaseUrl: string): Promise<ServerProcess> {
    const server = await startServer(serverEnv(databaseUrl));
    started.push(server);
    return server;
  }

  async function registerAndInvite(server: ServerProcess, apiKey: string, url: string) {
    const hook = await api(server, apiKey)
      .post('/webhooks')
      .send({ url, events: ['lead.created'] });
    expect(hook.status).toBe(200);
    const partnerId = await invitePartner(request.agent(server.baseUrl), apiKey);
    return { hookId: (hook.body.data as { id: number }).id, partnerId };
  }

  /**
   * A receiver that never answers its first request and answers 204 to every later one, a server
   * with an endpoint for it, and a lead created: resolves once the first attempt has arrived.
   */
  async function firstAttemptHeld(db: { url: string; apiKey: string }) {
    const attempts: string[] = [];
    let arrived: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    const receiver = await startReceiver((req, res) => {
      attempts.push(String(req.headers['webhook-id']));
      if (attempts.length === 1) return arrived!();
      res.statusCode = 204;
      res.end();
    });
    receivers.push(receiver);
    const first = await start(db.url);
    const { hookId, partnerId } = await registerAndInvite(first, db.apiKey, receiver.url);
    const lead = await api(first, db.apiKey).post(`/partners/${partnerId}/leads`).send(leadBody());
    expect(lead.status).toBe(200);
    await held;
    return { first, hookId, attempts };
  }

  it('sends again with the same webhook-id after a kill -9 between sending and recording, once the lease has passed', async () => {
    const db = await scratchWithKey();
    // the first request is received and never answered: the sender is between sending and recording
    const { first, hookId, attempts } = await firstAttemptHeld(db);
    expect(await first.stop('SIGKILL')).toBeNull();

    const second = await start(db.url);
    // nothing was recorded: the delivery is still PENDING with no attempt, under the dead process's lease
    const before = await deliveries(second, db.apiKey, hookId);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ status: 'PENDING', attempts: 0, lastResponseStatus: null });
    // the lease (5 minutes) has passed: aged in the database, as idempotency-process.mysql.e2e-spec.ts does
    await execute(
      db.url,
      'UPDATE webhook_deliveries SET locked_until = created_at WHERE locked_until IS NOT NULL',
    );

    const after = await waitFor(
      () => deliveries(second, db.apiKey, hookId),
      (rows) => rows[0]?.status === 'DELIVERED',
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      eventId: before[0]!.eventId,
      status: 'DELIVERED',
      attempts: 1,
      lastResponseStatus: 204,
    });
    // at least once: the same event twice, and the receiver deduplicates by webhook-id
    expect(attempts).toEqual([before[0]!.eventId, before[0]!.eventId]);
  }, 180_000);

  it('on SIGTERM during an attempt the receiver never answers: exits 0 within 10 s, and the next process sends it again at once (D41)', async () => {
    const db = await scratchWithKey();
    // never answered: the attempt would wait for its 10-second timeout
    const { first, hookId, attempts } = await firstAttemptHeld(db);
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);

    // given back as it was: no attempt counted, no lease to wait for
    const second = await start(db.url);
    const after = await waitFor(
      () => deliveries(second, db.apiKey, hookId),
      (rows) => rows[0]?.status === 'DELIVERED',
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'DELIVERED', attempts: 1, lastResponseStatus: 204 });
    expect(attempts).toEqual([after[0]!.eventId, after[0]!.eventId]);
  }, 180_000);

  it('two processes on one database: every event delivered once, never two attempts of one at a time', async () => {
    const db = await scratchWithKey();
    const inFlight = new Map<string, number>();
    const maxInFlight = new Map<string, number>();
    const total = new Map<string, number>();
    const receiver = await startReceiver((req, res) => {
      const id = String(req.headers['webhook-id']);
      const now = (inFlight.get(id) ?? 0) + 1;
      inFlight.set(id, now);
      maxInFlight.set(id, Math.max(maxInFlight.get(id) ?? 0, now));
      total.set(id, (total.get(id) ?? 0) + 1);
      setTimeout(() => {
        inFlight.set(id, inFlight.get(id)! - 1);
        res.statusCode = 204;
        res.end();
      }, 50);
    });
    receivers.push(receiver);

    const servers = [await start(db.url), await start(db.url)] as const;
    const { hookId, partnerId } = await registerAndInvite(servers[0], db.apiKey, receiver.url);
    const N = 40;
    const created = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        api(servers[i % 2]!, db.apiKey)
          .post(`/partners/${partnerId}/leads`)
          .send(leadBody()),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(N).fill(200));

    const rows = await waitFor(
      () => deliveries(servers[1], db.apiKey, hookId),
      (all) => all.length === N && all.every((d) => d.status === 'DELIVERED'),
    );
    expect(rows).toHaveLength(N);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'DELIVERED', attempts: 1, lastResponseStatus: 204 });
    }
    expect(new Set(rows.map((row) => row.eventId)).size).toBe(N);
    expect([...total.keys()].sort()).toEqual(rows.map((row) => row.eventId).sort());
    // every answer was 2xx, so nothing had a reason to be sent twice, in parallel or after
    expect([...total.values()]).toEqual(Array(N).fill(1));
    expect([...maxInFlight.values()]).toEqual(Array(N).fill(1));
  }, 180_000);
});
