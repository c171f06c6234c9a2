import { DataSource } from 'typeorm';
import { runCli } from '../../src/cli';
import { migrations } from '../../src/database';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown>;
}

/** docs/configuration.md "Administration CLI": the real CLI, run in-process against a database of its own. */
describe('admin CLI', () => {
  let scratch: ScratchDatabase;
  const saved = { ...process.env };

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    process.env.DATABASE_URL = scratch.url;
    process.env.LOG_LEVEL = 'silent';
    delete process.env.MIGRATIONS_RUN;
  });
  afterAll(async () => {
    process.env = saved;
    await scratch.drop();
  });

  async function cli(...argv: string[]): Promise<CliRun> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
    let json: Record<string, unknown> = {};
    if (code === 0 && !argv.includes('--help')) {
      // exactly one JSON object on one line
      expect(stdout.endsWith('\n')).toBe(true);
      expect(stdout.trimEnd().split('\n')).toHaveLength(1);
      json = JSON.parse(stdout);
    }
    return { code, stdout, stderr, json };
  }

  async function count(table: string): Promise<number> {
    const dataSource = new DataSource({
      ...(scratch.url.startsWith('sqlite:')
        ? { type: 'better-sqlite3' as const, database: scratch.url.slice('sqlite:'.length) }
        : { type: 'mysql' as const, url: scratch.url }),
    });
    await dataSource.initialize();
    try {
      return Number((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
    } finally {
      await dataSource.destroy();
    }
  }

  it('db:migrate applies every migration once and prints their names', async () => {
    const first = await cli('db:migrate');
    expect(first.code).toBe(0);
    expect(first.json).toEqual({ applied: migrations.map((m) => new m().name) });
    const second = await cli('db:migrate');
    expect(second.json).toEqual({ applied: [] });
  });

  let vendorId: number;
  let apiKey: string;

  it('vendors:create prints the vendor id and its first API key', async () => {
    const run = await cli('vendors:create', '--name', 'Acme');
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      vendorId: expect.any(Number),
      apiKey: expect.stringMatching(/^prm_[A-Za-z0-9_-]{43}$/),
    });
    ({ vendorId, apiKey } = run.json as { vendorId: number; apiKey: string });
  });

  it('api-keys:create prints another key; api-keys:revoke revokes it once', async () => {
    const created = await cli('api-keys:create', '--vendor', String(vendorId));
    expect(created.code).toBe(0);
    const key = created.json.apiKey as string;
    expect(key).toMatch(/^prm_/);
    expect(key).not.toBe(apiKey);
    expect((await cli('api-keys:revoke', '--key', key)).json).toEqual({ revoked: true });
    const again = await cli('api-keys:revoke', '--key', key);
    expect(again.code).not.toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/not found/);
  });

  it('lead-options:create and lead-options:list', async () => {
    const hot = await cli(
      'lead-options:create',
      '--vendor',
      String(vendorId),
      '--kind',
      'status',
      '--label',
      'Hot',
    );
    const web = await cli(
      'lead-options:create',
      '--vendor',
      String(vendorId),
      '--kind',
      'source',
      '--label',
      'Web',
    );
    expect(hot.json).toEqual({ id: expect.any(Number) });
    const list = await cli('lead-options:list', '--vendor', String(vendorId));
    expect(list.json).toEqual({
      data: [
        { id: hot.json.id, kind: 'status', label: 'Hot' },
        { id: web.json.id, kind: 'source', label: 'Web' },
      ],
    });
  });

  it.each([
    [['vendors:create'], /missing --name/],
    [['vendors:create', '--name', '   '], /--name must not be blank/],
    [['vendors:create', '--name', 'x', '--colour', 'red'], /colour/],
    [['api-keys:create', '--vendor', 'abc'], /--vendor must be a positive integer/],
    [['api-keys:create', '--vendor', '999999'], /vendor not found/],
    [
      ['lead-options:create', '--vendor', '1', '--kind', 'colour', '--label', 'x'],
      /--kind must be source or status/,
    ],
    [['lead-options:list', '--vendor', '0'], /--vendor must be a positive integer/],
    [['no-such-command'], /unknown command/],
  ])(
    'refuses %j with a clear message on stderr, non-zero exit, nothing on stdout, nothing written',
    async (argv, message) => {
      const before = (await count('vendors')) + (await count('lead_options')) + (await count('api_keys'));
      const run = await cli(...argv);
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect((await count('vendors')) + (await count('lead_options')) + (await count('api_keys'))).toBe(
        before,
      );
    },
  );

  it('--help lists every command of docs/configuration.md', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    for (const name of [
      'vendors:create',
      'api-keys:create',
      'api-keys:revoke',
      'lead-options:create',
      'lead-options:list',
      'db:migrate',
    ]) {
      expect(run.stdout).toContain(name);
    }
    const one = await cli('lead-options:create', '--help');
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('--vendor <vendorId> --kind source|status --label <label>');
  });
});
