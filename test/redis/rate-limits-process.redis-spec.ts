import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { redisKeyPrefix, testRedisUrl } from '../support/redis';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { SERVICE_NODE, ServerProcess, ensureBuilt, freePort, startServer } from '../support/server-process';

const ROOT = join(__dirname, '..', '..');
const NS = '/api/v1/vendors';

/** X6, X7 with the built server: two processes share one limit through Redis; Redis down fails open. */
describe('rate limits across server processes (node dist/main.js)', () => {
  const keys = redisKeyPrefix();
  let scratch: ScratchDatabase;
  let apiKey: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    scratch = await createScratchDatabase();
    const stdout = execFileSync(
      SERVICE_NODE,
      [join(ROOT, 'dist', 'cli.js'), 'vendors:create', '--name', 'Acme'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    ({ apiKey } = JSON.parse(stdout) as { apiKey: string });
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await scratch?.drop();
    await keys.cleanup();
  });

  const get = (server: ServerProcess) =>
    fetch(`${server.baseUrl}${NS}/nothing`, { headers: { 'X-API-KEY': apiKey } });

  it('two processes with one REDIS_URL share one limit per vendor', async () => {
    const env = {
      DATABASE_URL: scratch.url,
      MIGRATIONS_RUN: 'false',
      RATE_LIMIT_PER_MINUTE: '4',
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: keys.prefix,
    };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    servers.push(a!, b!);
    const answers: [number, string | null][] = [];
    for (const server of [a!, b!, a!, b!, a!, b!]) {
      const response = await get(server);
      answers.push([response.status, response.headers.get('ratelimit-remaining')]);
    }
    expect(answers).toEqual([
      [404, '3'],
      [404, '2'],
      [404, '1'],
      [404, '0'],
      [429, '0'],
      [429, '0'],
    ]);
  });

  it('a process whose Redis cannot be reached serves without limit, logs it once and counts it on the management port', async () => {
    const server = await startServer({
      DATABASE_URL: scratch.url,
      MIGRATIONS_RUN: 'false',
      RATE_LIMIT_PER_MINUTE: '1',
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    servers.push(server);
    for (let i = 0; i < 3; i += 1) {
      const response = await get(server);
      expect(response.status).toBe(404);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    const metrics = await (await fetch(`${server.managementUrl}/metrics`)).text();
    expect(metrics).toMatch(/^rate_limit_store_errors_total 3$/m);
    expect(metrics).toMatch(/^rate_limit_store_up 0$/m);
    const warnings = server
      .output()
      .split('\n')
      .filter((line) => line.includes('rate limit store (Redis) unavailable'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, context: 'RateLimit' });
  });
});
