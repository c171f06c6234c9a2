import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { postHead, rawExchange } from '../support/raw-http';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { SERVICE_NODE, ServerProcess, ensureBuilt, startServer } from '../support/server-process';

const ROOT = join(__dirname, '..', '..');

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** D41 against the built server (node dist/main.js), whatever its clients do during SIGTERM. */
describe('SIGTERM with slow and keep-alive clients (node dist/main.js)', () => {
  let scratch: ScratchDatabase;
  let apiKey: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    ensureBuilt();
    scratch = await createScratchDatabase();
    apiKey = createKey(scratch.url);
  }, 120_000);

  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });

  afterAll(async () => {
    await scratch?.drop();
  });

  it('exits 0 within 10 s while a connection is stuck sending its body, which gets 408 (D41)', async () => {
    server = await startServer({ DATABASE_URL: scratch.url }); // default bounds: 30 s for a request
    const port = Number(new URL(server.baseUrl).port);
    const stuck = rawExchange(port, postHead('/api/v1/vendors/partners', 1_000_000, apiKey), {
      trickleMs: 200,
      timeoutMs: 15_000,
    });
    await sleep(300);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    const exchange = await stuck;
    expect(exchange.responses.map((r) => [r.status, r.headers.connection])).toEqual([[408, 'close']]);
    expect(exchange.responses[0]!.body).toMatchObject({ message: 'INVALID_REQUEST', status: 408 });
    expect(exchange.responses[0]!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/); // docs/api.md "Requests"
    expect(exchange.closedBy).not.toBe('never');
    expect(server.output()).toContain('closed 1 connections still sending a request');
  }, 20_000);

  it('gives keep-alive clients firing through SIGTERM only whole answers or refused connections', async () => {
    server = await startServer({ DATABASE_URL: scratch.url });
    const running = server;
    const port = Number(new URL(running.baseUrl).port);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes = { answered: 0, answeredAfterSignal: 0, refused: 0 };
    const keptAliveAfterSignal: string[] = [];
    const failures: string[] = [];

    /** one request; false once the server refuses connections */
    const fire = () =>
      new Promise<boolean>((resolve) => {
        // the server logs this line in the tick it starts draining: a request sent after the test has
        // seen it is certainly handled by a draining server
        const afterSignal = running.output().includes('SIGTERM received');
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/v1/vendors/nothing',
            agent,
            headers: { 'X-API-KEY': apiKey },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => {
              if (res.statusCode !== 404 || !res.complete || !body.includes('RESOURCE_NOT_FOUND')) {
                failures.push(`incomplete or wrong answer ${res.statusCode} ${body}`);
              }
              outcomes.answered += 1;
              if (afterSignal) {
                outcomes.answeredAfterSignal += 1;
                if (res.headers.connection !== 'close')
                  keptAliveAfterSignal.push(String(res.headers.connection));
              }
              resolve(true);
            });
            res.on('error', (error) => {
              failures.push(`response broken: ${error.message}`);
              resolve(false);
            });
          },
        );
        req.on('error', (error: NodeJS.ErrnoException) => {
          // refused before anything was written is fine; a reset of a written request is not
          if (error.code === 'ECONNREFUSED') outcomes.refused += 1;
          else failures.push(`${error.code ?? error.message} (reused socket: ${req.reusedSocket})`);
          resolve(false);
        });
        req.end();
      });
    const loop = async () => {
      while (await fire());
    };
    const loops = Array.from({ length: 8 }, loop);
    await sleep(500);
    const signalled = Date.now();
    running.child.kill('SIGTERM');
    await Promise.all(loops);
    agent.destroy();

    expect(failures).toEqual([]);
    expect(keptAliveAfterSignal).toEqual([]);
    expect(outcomes.answered).toBeGreaterThan(8);
    expect(outcomes.refused).toBe(8); // each loop ends on a refused connection
    expect(await running.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
  }, 20_000);
});
