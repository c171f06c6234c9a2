import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { commands, runCli } from '../../src/cli';
import { databaseName, parseDatabaseUrl } from '../../src/config/app-config';
import { migrations } from '../../src/database';
import { ApiKeySecret } from '../../src/vendors/domain/api-key';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { SERVICE_NODE, ensureBuilt } from '../support/server-process';
import { ISO_DATETIME } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

/** A DataSource on a scratch database, for counting what the CLI wrote. */
async function openDatabase(url: string): Promise<DataSource> {
  const dataSource = new DataSource({
    ...(url.startsWith('sqlite:')
      ? { type: 'better-sqlite3' as const, database: url.slice('sqlite:'.length) }
      : { type: 'mysql' as const, url }),
  });
  return dataSource.initialize();
}

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
    if (code === 0 && !argv.includes('--help') && argv[0] !== 'help' && !argv[0]?.startsWith('-')) {
      // exactly one JSON object on one line
      expect(stdout.endsWith('\n')).toBe(true);
      expect(stdout.trimEnd().split('\n')).toHaveLength(1);
      json = JSON.parse(stdout);
    }
    return { code, stdout, stderr, json };
  }

  async function count(table: string): Promise<number> {
    const dataSource = await openDatabase(scratch.url);
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

  it('vendors:list prints every vendor, oldest first: id, name and createdAt', async () => {
    const other = await cli('vendors:create', '--name', 'Globex');
    const run = await cli('vendors:list');
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      data: [
        { id: vendorId, name: 'Acme', createdAt: expect.stringMatching(ISO_DATETIME) },
        { id: other.json.vendorId, name: 'Globex', createdAt: expect.stringMatching(ISO_DATETIME) },
      ],
    });
  });

  it("api-keys:list prints the vendor's keys newest first, revoked ones included, never a secret or hash", async () => {
    const { json } = await cli('api-keys:create', '--vendor', String(vendorId));
    const newest = json.apiKey as string;
    const run = await cli('api-keys:list', '--vendor', String(vendorId));
    expect(run.code).toBe(0);
    const keys = run.json.data as Record<string, unknown>[];
    // vendors:create's key, the key api-keys:create made and revoked above, and the newest
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      expect(Object.keys(key)).toEqual([
        'id',
        'name',
        'prefix',
        'scopes',
        'createdAt',
        'expiresAt',
        'lastUsedAt',
        'revokedAt',
      ]);
      expect(key).toMatchObject({ name: null, scopes: null, expiresAt: null, lastUsedAt: null });
      expect(key.prefix).toMatch(/^prm_.{6}$/);
      expect(key.createdAt).toMatch(ISO_DATETIME);
    }
    expect(keys[0]).toMatchObject({ prefix: newest.slice(0, 10), revokedAt: null });
    expect(keys[2]).toMatchObject({ prefix: apiKey.slice(0, 10), revokedAt: null });
    expect(keys[1]!.revokedAt).toMatch(ISO_DATETIME);
    expect((keys.map((k) => k.id) as number[]).sort((a, b) => b - a)).toEqual(keys.map((k) => k.id));
    for (const secret of [apiKey, newest]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stdout).not.toContain(ApiKeySecret.hash(secret));
    }
    const other = await cli('vendors:create', '--name', 'Initech');
    const others = (await cli('api-keys:list', '--vendor', String(other.json.vendorId))).json.data;
    expect(others).toEqual([
      expect.objectContaining({ prefix: (other.json.apiKey as string).slice(0, 10), revokedAt: null }),
    ]);
  });

  it('--version prints the version of package.json, exit 0', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
    for (const flag of ['--version', '-V']) {
      const run = await cli(flag);
      expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
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

  /** vendors, lead options, API keys, and which keys are active: what a refused command must leave as it was */
  async function state(): Promise<number[]> {
    return [
      await count('vendors'),
      await count('lead_options'),
      await count('api_keys'),
      await count('api_keys WHERE revoked_at IS NULL'),
    ];
  }

  const vendorArg = () => String(vendorId);

  it.each<[string, () => string[], RegExp]>([
    [
      'vendors:create without --name',
      () => ['vendors:create'],
      /required option '--name <name>' not specified/,
    ],
    [
      'vendors:create --name without a value',
      () => ['vendors:create', '--name'],
      /option '--name <name>' argument missing/,
    ],
    [
      'an unknown option',
      () => ['vendors:create', '--name', 'x', '--colour', 'red'],
      /unknown option '--colour'/,
    ],
    ['an argument no command takes', () => ['vendors:create', '--name', 'x', 'extra'], /too many arguments/],
    [
      'api-keys:create --vendor abc',
      () => ['api-keys:create', '--vendor', 'abc'],
      /option '--vendor <vendorId>' argument 'abc' is invalid. It must be a positive integer/,
    ],
    [
      'api-keys:create --vendor 1.5',
      () => ['api-keys:create', '--vendor', '1.5'],
      /It must be a positive integer/,
    ],
    [
      'api-keys:revoke without --key',
      () => ['api-keys:revoke'],
      /required option '--key <key>' not specified/,
    ],
    [
      'lead-options:create without --label',
      () => ['lead-options:create', '--vendor', vendorArg(), '--kind', 'status'],
      /required option '--label <label>' not specified/,
    ],
    [
      'lead-options:list --vendor 0',
      () => ['lead-options:list', '--vendor', '0'],
      /'--vendor <vendorId>' argument '0' is invalid/,
    ],
    [
      'lead-options:list --vendor -1',
      () => ['lead-options:list', '--vendor', '-1'],
      /It must be a positive integer/,
    ],
    [
      'api-keys:list without --vendor',
      () => ['api-keys:list'],
      /required option '--vendor <vendorId>' not specified/,
    ],
    ['vendors:list with an option', () => ['vendors:list', '--name', 'x'], /unknown option '--name'/],
    [
      'lead-options:create with a kind other than source or status',
      () => ['lead-options:create', '--vendor', vendorArg(), '--kind', 'colour', '--label', 'x'],
      /option '--kind <source\|status>' argument 'colour' is invalid. It must be source or status/,
    ],
    // values the command's own rules refuse are wrong on the command line too (docs/configuration.md)
    [
      'vendors:create with a blank name',
      () => ['vendors:create', '--name', '   '],
      /--name must not be blank/,
    ],
    ['vendors:create with a name too long', () => ['vendors:create', '--name', 'x'.repeat(256)], /--name/],
    [
      'lead-options:create with a blank label',
      () => ['lead-options:create', '--vendor', vendorArg(), '--kind', 'source', '--label', ' '],
      /--label must not be blank/,
    ],
    ['db:migrate with an option', () => ['db:migrate', '--dry-run'], /unknown option '--dry-run'/],
    ['an unknown command', () => ['no-such-command'], /unknown command 'no-such-command'/],
    ['no command at all', () => [], /Usage: node dist\/cli.js/],
  ])(
    'usage error, %s: a clear message on stderr, exit 2, nothing on stdout, nothing written',
    async (_name, argv, message) => {
      const before = await state();
      const run = await cli(...argv());
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(await state()).toEqual(before);
    },
  );

  it.each<[string, () => string[], RegExp]>([
    [
      'api-keys:create for an unknown vendor',
      () => ['api-keys:create', '--vendor', '999999'],
      /vendor not found in \S/,
    ],
    ['api-keys:revoke of an unknown key', () => ['api-keys:revoke', '--key', 'prm_nothing'], /not found/],
    [
      'lead-options:create for an unknown vendor',
      () => ['lead-options:create', '--vendor', '999999', '--kind', 'source', '--label', 'x'],
      /vendor not found in \S/,
    ],
    [
      'lead-options:list for an unknown vendor',
      () => ['lead-options:list', '--vendor', '999999'],
      /vendor not found in \S/,
    ],
    [
      'api-keys:list for an unknown vendor',
      () => ['api-keys:list', '--vendor', '999999'],
      /vendor not found in \S/,
    ],
  ])(
    'refusal, %s: a clear message on stderr, exit 1, nothing on stdout, nothing written',
    async (_name, argv, message) => {
      const before = await state();
      const run = await cli(...argv());
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(await state()).toEqual(before);
    },
  );

  it('--help lists every command of docs/configuration.md', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    for (const name of [
      'vendors:create',
      'vendors:list',
      'api-keys:create',
      'api-keys:revoke',
      'api-keys:list',
      'lead-options:create',
      'lead-options:list',
      'db:migrate',
    ]) {
      expect(run.stdout).toContain(name);
    }
    expect(run.stderr).toBe('');
    const one = await cli('lead-options:create', '--help');
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('--vendor <vendorId> --kind <source|status> --label <label>');
  });

  it.each(commands.map((c) => c.name))(
    '%s --help describes its options on stdout and exits 0',
    async (name) => {
      const command = commands.find((c) => c.name === name)!;
      const run = await cli(name, '--help');
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(`Usage: node dist/cli.js ${name}`);
      expect(run.stdout.replace(/\s+/g, ' ')).toContain(command.summary); // wrapped at 80 columns
      for (const option of Object.keys(command.options)) expect(run.stdout).toContain(`--${option} <`);
      expect(await cli('help', name)).toMatchObject({ code: 0, stdout: run.stdout });
    },
  );
});

/** Nothing runs before the command line is understood: not even the migrations of a new database. */
describe('admin CLI on a new database', () => {
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

  async function tables(): Promise<boolean> {
    const dataSource = await openDatabase(scratch.url);
    try {
      return await dataSource.createQueryRunner().hasTable('vendors');
    } finally {
      await dataSource.destroy();
    }
  }

  it('a usage error or --help applies no migration', async () => {
    const quiet = { stdout: () => undefined, stderr: () => undefined };
    expect(await runCli(['api-keys:create', '--vendor', 'abc'], quiet)).toBe(2);
    expect(
      await runCli(['leads:import', '--vendor', '1', '--partner', '1', '--file', 'leads.txt'], quiet),
    ).toBe(2);
    expect(
      await runCli(['lead-options:create', '--vendor', '1', '--kind', 'colour', '--label', 'x'], quiet),
    ).toBe(2);
    expect(await runCli(['vendors:create', '--help'], quiet)).toBe(0);
    expect(await tables()).toBe(false);
  });

  it('an invalid configuration is exit 2 with one line naming the variable, and applies no migration', async () => {
    process.env.DATABASE_TIMEOUT_MS = '50';
    let stderr = '';
    let stdout = '';
    try {
      const code = await runCli(['vendors:create', '--name', 'Acme'], {
        stdout: (s) => (stdout += s),
        stderr: (s) => (stderr += s),
      });
      expect(code).toBe(2);
    } finally {
      delete process.env.DATABASE_TIMEOUT_MS;
    }
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'error: Invalid configuration: DATABASE_TIMEOUT_MS must be a whole number from 100 to 60000 (got "50")\n',
    );
    expect(await tables()).toBe(false);
  });

  it('MIGRATIONS_RUN=false is obeyed by other commands, while db:migrate applies and names every migration', async () => {
    process.env.MIGRATIONS_RUN = 'false';
    let stdout = '';
    const out = { stdout: (s: string) => (stdout += s), stderr: () => undefined };
    try {
      expect(await runCli(['vendors:create', '--name', 'Acme'], out)).toBe(1); // no table yet
      expect(await tables()).toBe(false);
      expect(await runCli(['db:migrate'], out)).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ applied: migrations.map((m) => new m().name) });
    } finally {
      delete process.env.MIGRATIONS_RUN;
    }
    expect(process.env.MIGRATIONS_RUN).toBeUndefined();
  });
});

/** The built CLI as a process: what scripts and operators see (docs/configuration.md "Administration CLI"). */
describe('node dist/cli.js', () => {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    ensureBuilt();
    scratch = await createScratchDatabase();
  }, 120_000);
  afterAll(async () => {
    await scratch.drop();
  });

  function node(...args: string[]): { status: number | null; stdout: string; stderr: string } {
    return spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'cli.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: scratch.url, LOG_LEVEL: 'silent', MIGRATIONS_RUN: 'true' },
      encoding: 'utf8',
      timeout: 60_000,
    });
  }

  it('--help: the commands on stdout, exit 0', () => {
    const run = node('--help');
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    for (const command of commands) expect(run.stdout).toContain(command.name);
    expect(run.stdout).toContain('Exit codes: 0 done, 1 refused');
  });

  it('--version: the version of package.json on stdout, exit 0', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(node('--version')).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('a usage error: stderr, exit 2, nothing on stdout', () => {
    const run = node('api-keys:create', '--vendor', 'abc');
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: option '--vendor <vendorId>' argument 'abc' is invalid/);
    const kind = node('lead-options:create', '--vendor', '1', '--kind', 'colour', '--label', 'Red');
    expect(kind).toMatchObject({ status: 2, stdout: '' });
    expect(kind.stderr).toMatch(/^error: option '--kind <source\|status>' argument 'colour' is invalid/);
  });

  it('success: one JSON object on stdout, exit 0; a refusal: stderr, exit 1, nothing on stdout', () => {
    const created = node('vendors:create', '--name', 'Acme');
    expect(created.status).toBe(0);
    expect(created.stdout.trimEnd().split('\n')).toHaveLength(1);
    const { apiKey } = JSON.parse(created.stdout) as { apiKey: string };
    expect(node('api-keys:revoke', '--key', apiKey).stdout).toBe('{"revoked":true}\n');
    const again = node('api-keys:revoke', '--key', apiKey);
    expect(again.status).toBe(1);
    expect(again.stdout).toBe('');
    // a refusal of something not found names the database it looked in, never a password
    expect(again.stderr).toBe(
      `error: active API key not found in ${databaseName(parseDatabaseUrl(scratch.url))}\n`,
    );
    const vendorMissing = node('api-keys:list', '--vendor', '999999');
    expect(vendorMissing.status).toBe(1);
    expect(vendorMissing.stderr).toBe(
      `error: vendor not found in ${databaseName(parseDatabaseUrl(scratch.url))}\n`,
    );
  });

  it('resolves a relative SQLite path against its own folder, whatever the working directory', () => {
    const data = mkdtempSync(join(tmpdir(), 'prm-data-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'prm-cwd-'));
    try {
      const file = join(data, 'app.sqlite');
      // deeper than the project folder, so the same relative path from here points somewhere else
      const cwd = join(elsewhere, 'a', 'b', 'c', 'd');
      mkdirSync(cwd, { recursive: true });
      const env = { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${relative(ROOT, file)}` };
      const run = (...args: string[]) =>
        spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'cli.js'), ...args], {
          cwd,
          env,
          encoding: 'utf8',
          timeout: 60_000,
        });
      expect(run('vendors:create', '--name', 'Acme')).toMatchObject({ status: 0, stderr: '' });
      expect(existsSync(file)).toBe(true);
      expect(readdirSync(cwd)).toEqual([]);
      const listed = run('vendors:list');
      expect(JSON.parse(listed.stdout)).toEqual({ data: [expect.objectContaining({ name: 'Acme' })] });
      const missing = run('lead-options:list', '--vendor', '999999');
      expect(missing).toMatchObject({
        status: 1,
        stdout: '',
        stderr: `error: vendor not found in ${file}\n`,
      });
    } finally {
      rmSync(data, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('several commands started at once on a fresh database migrate it once, each succeeding', async () => {
    const run = (url: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          SERVICE_NODE,
          [join(ROOT, 'dist', 'cli.js'), 'vendors:create', '--name', 'Race'],
          {
            cwd: ROOT,
            env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent', MIGRATIONS_RUN: 'true' },
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    // before the SQLite lock, about 1 process in 12 failed here ("table ... already exists",
    // "database is locked"): 24 processes make a regression show about 9 times in 10
    for (let round = 0; round < 6; round++) {
      const fresh = await createScratchDatabase();
      try {
        const runs = await Promise.all([1, 2, 3, 4].map(() => run(fresh.url)));
        expect(runs.map((r) => [r.status, r.stderr])).toEqual(Array(4).fill([0, '']));
        expect(runs.map((r) => Object.keys(JSON.parse(r.stdout) as object))).toEqual(
          Array(4).fill(['vendorId', 'apiKey']),
        );
        const db = await openDatabase(fresh.url);
        try {
          expect(await db.query('SELECT name FROM migrations')).toHaveLength(migrations.length);
        } finally {
          await db.destroy();
        }
      } finally {
        await fresh.drop();
      }
    }
  }, 120_000);

  it('an invalid configuration: one line naming the variable, exit 2', () => {
    const run = spawnSync(SERVICE_NODE, [join(ROOT, 'dist', 'cli.js'), 'db:migrate'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: scratch.url, MIGRATIONS_RUN: 'maybe' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'error: Invalid configuration: MIGRATIONS_RUN must be true or false (got "maybe")\n',
    );
  });
});
