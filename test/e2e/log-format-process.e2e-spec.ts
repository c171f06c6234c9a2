import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { SERVICE_NODE, ServerProcess, ensureBuilt, startServer } from '../support/server-process';

const ROOT = join(__dirname, '..', '..');

/** Waits until the server's output holds `text` (its log is written as things happen). */
async function waitFor(server: ServerProcess, text: string): Promise<void> {
  for (let i = 0; i < 100 && !server.output().includes(text); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * LOG_FORMAT and what a start logs (docs/configuration.md): the built server as a process, on a new
 * database each time, so its migrations run at start.
 */
describe('log format of the built server (LOG_FORMAT)', () => {
  let scratch: ScratchDatabase;
  let server: ServerProcess | undefined;

  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(async () => {
    scratch = await createScratchDatabase();
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
    await scratch.drop();
  });

  it('pretty: one readable line per request and per message, no JSON, no route dump, no line per migration', async () => {
    server = await startServer({ DATABASE_URL: scratch.url, LOG_FORMAT: 'pretty' });
    await waitFor(server, 'public API listening on');
    await fetch(`${server.baseUrl}/api/v1/vendors/nothing?keyword=ada@example.com`);
    await waitFor(server, 'GET /api/v1/vendors/nothing');
    const lines = server.output().split('\n').filter(Boolean);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/v1\/vendors\/nothing 401 [\d.]+ ms$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/INFO: \[MigrationRunner\] applied \d+ migrations$/));
    expect(lines).toContainEqual(expect.stringMatching(/INFO: \[Server\] public API listening on http:/));
    expect(server.output()).not.toMatch(/Mapped \{|RoutesResolver|RouterExplorer|applied migration /);
    expect(server.output()).not.toContain('ada@example.com'); // the path without its query, as in JSON
  });

  it('json, the default where stdout is not a terminal: JSON lines, the same quiet start', async () => {
    server = await startServer({ DATABASE_URL: scratch.url, LOG_FORMAT: '' }); // unset
    await waitFor(server, 'public API listening on');
    await fetch(`${server.baseUrl}/api/v1/vendors/nothing`);
    await waitFor(server, '"path":"/api/v1/vendors/nothing"');
    const lines = server
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request completed',
        method: 'GET',
        path: '/api/v1/vendors/nothing',
        status: 401,
      }),
    );
    expect(
      lines.filter((line) => line.context === 'RouterExplorer' || line.context === 'RoutesResolver'),
    ).toEqual([]);
    expect(lines.filter((line) => line.context === 'MigrationRunner').map((line) => line.msg)).toEqual([
      expect.stringMatching(/^applied \d+ migrations$/),
    ]);
  });

  it('LOG_LEVEL=debug shows the route dump and each migration', async () => {
    server = await startServer({ DATABASE_URL: scratch.url, LOG_LEVEL: 'debug' });
    await waitFor(server, 'public API listening on');
    const lines = server
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 20,
        context: 'RouterExplorer',
        msg: 'Mapped {/api/v1/vendors/partners, POST} route',
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 20,
        context: 'MigrationRunner',
        msg: 'applied migration Vendors1763700000000',
      }),
    );
  });

  it('refuses another LOG_FORMAT at start with one line naming it', () => {
    const run = spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: scratch.url, LOG_FORMAT: 'yaml' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('Invalid configuration: LOG_FORMAT must be pretty or json (got "yaml")\n');
  });
});
