import { execFileSync, spawnSync } from 'node:child_process';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { SERVICE_NODE, ServerProcess, ensureBuilt, freePort, startServer } from '../support/server-process';

const ROOT = join(__dirname, '..', '..');

function cli(env: Record<string, string>, ...args: string[]): Record<string, unknown> {
  const stdout = execFileSync(SERVICE_NODE, [join(ROOT, 'dist', 'cli.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

/** docs/configuration.md: the built server as a process — start, serve, bad configuration, SIGTERM (D41). */
describe('server process (node dist/main.js)', () => {
  let scratch: ScratchDatabase;
  let server: ServerProcess;
  let apiKey: string;

  beforeAll(async () => {
    ensureBuilt();
    scratch = await createScratchDatabase();
    ({ apiKey } = cli({ DATABASE_URL: scratch.url }, 'vendors:create', '--name', 'Acme') as {
      apiKey: string;
    });
    server = await startServer({ DATABASE_URL: scratch.url });
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await scratch?.drop();
  });

  it('serves the API with a key made by the CLI, and refuses what the contract refuses', async () => {
    const found = await fetch(`${server.baseUrl}/api/v1/vendors/nothing`, {
      headers: { 'X-API-KEY': apiKey },
    });
    expect(found.status).toBe(404);
    expect(await found.json()).toMatchObject({ message: 'RESOURCE_NOT_FOUND' });
    const missing = await fetch(`${server.baseUrl}/api/v1/vendors/nothing`);
    expect(await missing.json()).toMatchObject({ message: 'API_KEY_MISSING' });
    const outside = await fetch(`${server.baseUrl}/`);
    expect(outside.status).toBe(401);
    expect(await outside.json()).toMatchObject({ message: 'UNKNOWN_API_NAMESPACE' });
  });

  it('is ready on the management port', async () => {
    const ready = await fetch(`${server.managementUrl}/readyz`);
    expect(ready.status).toBe(200);
  });

  it('logs the addresses it bound, as bound', async () => {
    const line = `public API listening on ${server.baseUrl}; health, metrics and API docs on ${server.managementUrl}`;
    for (let i = 0; i < 50 && !server.output().includes(line); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(server.output()).toContain(line);
  });

  it("says it started once, after the port accepts connections, never in Nest's words before that", async () => {
    for (let i = 0; i < 50 && !server.output().includes('public API listening on'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = server
      .output()
      .split('\n')
      .filter((text) => /started|listening/i.test(text));
    expect(started).toEqual([expect.stringContaining('public API listening on')]);
  });

  it.each([
    ['the public port', 'PORT', (taken: number) => ({ PORT: String(taken), MANAGEMENT_PORT: '0' })],
    [
      'the management port',
      'MANAGEMENT_PORT',
      (taken: number) => ({ PORT: '0', MANAGEMENT_PORT: String(taken) }),
    ],
  ])(
    'on %s already taken: one line naming %s and the address, exit 1, no line saying it started',
    async (_port, variable, env) => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const taken = (holder.address() as AddressInfo).port;
      try {
        const run = spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'main.js')], {
          cwd: ROOT,
          env: {
            ...process.env,
            DATABASE_URL: scratch.url,
            HOST: '127.0.0.1',
            MANAGEMENT_HOST: '127.0.0.1',
            LOG_LEVEL: 'info',
            LOG_FORMAT: 'json',
            ...env(taken),
          },
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(run.status).toBe(1);
        expect(run.stderr.trim().split('\n')).toEqual([
          `Invalid configuration: ${variable} cannot be listened on (EADDRINUSE: listen EADDRINUSE: address already in use 127.0.0.1:${taken}) (got "${taken}")`,
        ]);
        const lines = run.stdout.split('\n').filter(Boolean);
        expect(lines.length).toBeGreaterThan(0); // it did log, as JSON
        expect(lines.filter((text) => /started|listening on|endpoints on/i.test(text))).toEqual([]);
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    },
  );

  it('listens for management on MANAGEMENT_HOST only, loopback 127.0.0.1 by default (X15)', async () => {
    const elsewhere = server.managementUrl.replace('127.0.0.1', '127.0.0.2');
    await expect(fetch(`${elsewhere}/healthz`)).rejects.toThrow();
    const other = await startServer({ DATABASE_URL: scratch.url, MANAGEMENT_HOST: '127.0.0.2' });
    try {
      const moved = other.managementUrl.replace('127.0.0.1', '127.0.0.2');
      expect((await fetch(`${moved}/healthz`)).status).toBe(200);
      await expect(fetch(`${other.managementUrl}/healthz`)).rejects.toThrow();
    } finally {
      await other.stop('SIGKILL');
    }
  });

  it('refuses a revoked key from the next request on', async () => {
    const { apiKey: key } = cli({ DATABASE_URL: scratch.url }, 'api-keys:create', '--vendor', '1') as {
      apiKey: string;
    };
    // Several times: a key once accepted must still be refused after the revocation below, another
    // process's commit (D9).
    for (let i = 0; i < 3; i++) {
      expect(
        (await fetch(`${server.baseUrl}/api/v1/vendors/x`, { headers: { 'X-API-KEY': key } })).status,
      ).toBe(404);
    }
    cli({ DATABASE_URL: scratch.url }, 'api-keys:revoke', '--key', key);
    const refused = await fetch(`${server.baseUrl}/api/v1/vendors/x`, { headers: { 'X-API-KEY': key } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ message: 'INVALID_API_KEY' });
  });

  it('refuses a revoked key to every request sent after the revocation, while under load (D9)', async () => {
    // With requests always in flight, none sent after the revocation may be answered from what the
    // server read before it.
    const loaded = await startServer({
      DATABASE_URL: scratch.url,
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_FAILURES_PER_MINUTE: '0',
    });
    try {
      const { apiKey: key } = cli({ DATABASE_URL: scratch.url }, 'api-keys:create', '--vendor', '1') as {
        apiKey: string;
      };
      let revoked = false;
      let stop = false;
      const before: number[] = [];
      const after: number[] = [];
      const loop = async () => {
        while (!stop) {
          const sentAfterRevocation = revoked;
          const { status } = await fetch(`${loaded.baseUrl}/api/v1/vendors/x`, {
            headers: { 'X-API-KEY': key },
          });
          (sentAfterRevocation ? after : before).push(status);
        }
      };
      const loops = Array.from({ length: 16 }, loop);
      // counts, not durations: a busy machine answers fewer requests in a given time
      const untilAnswered = async (statuses: number[]) => {
        for (let waited = 0; statuses.length <= 60 && waited < 30_000; waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50));
      };
      await untilAnswered(before);
      // execFileSync: this process sends nothing until the revocation is committed
      cli({ DATABASE_URL: scratch.url }, 'api-keys:revoke', '--key', key);
      revoked = true;
      await untilAnswered(after);
      stop = true;
      await Promise.all(loops);
      expect(before.filter((status) => status === 404).length).toBeGreaterThan(50);
      expect(after.length).toBeGreaterThan(50);
      expect(after.filter((status) => status !== 401)).toEqual([]);
    } finally {
      await loaded.stop('SIGKILL');
    }
  });

  it('on SIGTERM exits 0 within 10 s, answering what it had received (D41)', async () => {
    // Requests racing the signal: each one either gets its proper answer (404 here) or is refused at
    // the connection, never a broken answer or a body outside the contract. That a request being
    // handled is finished is shown in-process by test/e2e/shutdown.e2e-spec.ts.
    const inFlight = Array.from({ length: 50 }, () =>
      fetch(`${server.baseUrl}/api/v1/vendors/nothing`, { headers: { 'X-API-KEY': apiKey } }).then(
        (response) => response.status,
        () => 'not connected',
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const outcomes = await Promise.all(inFlight);
    expect(outcomes.filter((s) => s !== 404 && s !== 'not connected')).toEqual([]);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(server.output()).toContain('SIGTERM received');
  }, 20_000);

  it('stops at start with one line, soon, when the database cannot be reached', () => {
    const started = Date.now();
    const run = spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: 'mysql://root@127.0.0.1:1/prm', MANAGEMENT_PORT: '0', PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^failed to start: the database cannot be used \(ECONNREFUSED/),
    ]);
  }, 40_000);

  it('stops at start with one line naming a bad variable', () => {
    for (const [name, value] of [
      ['PORT', 'abc'],
      ['DATABASE_URL', 'postgres://x'],
    ] as const) {
      const run = spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'main.js')], {
        cwd: ROOT,
        env: { ...process.env, [name]: value },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(name);
      expect(run.stdout).toBe('');
    }
  });

  it('stops at start with one line naming HOST or MANAGEMENT_HOST, not the database, when it cannot listen there', async () => {
    const free = await freePort();
    for (const [name, env] of [
      ['HOST', { HOST: '999.1.1.1', MANAGEMENT_PORT: '0' }],
      ['MANAGEMENT_HOST', { MANAGEMENT_HOST: 'no-such-host.invalid', MANAGEMENT_PORT: String(free) }],
    ] as const) {
      const run = spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'main.js')], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: scratch.url, PORT: '0', ...env },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Invalid configuration: ${name} cannot be listened on`));
      expect(lines[0]).not.toContain('database');
    }
  });
});
