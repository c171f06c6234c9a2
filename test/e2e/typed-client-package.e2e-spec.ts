import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { ServerProcess, createVendorWithCli, ensureBuilt, startServer } from '../support/server-process';

const ROOT = join(__dirname, '..', '..');
const PACKAGE_DIR = join(ROOT, 'clients', 'typescript');
const PACKAGE_NAME = '@partner-relationship-service/client';

// npm pack (with its tsc build), npm install and a tsc run take seconds each, more on a machine
// busy with the other test files: this file's own limit, above the suite's 30 s.
jest.setTimeout(60_000);

/**
 * npm with the caller's configuration (registry, cache), minus what `npm test` exports about the
 * root package and its running script, which would otherwise leak into a child npm in another folder.
 */
function npm(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !key.startsWith('npm_package_') &&
        !key.startsWith('npm_lifecycle_') &&
        key !== 'npm_config_local_prefix',
    ),
  );
  const run = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) {
    throw new Error(
      `npm ${args.join(' ')} in ${cwd} failed (${run.status ?? run.signal}):\n${run.stdout}\n${run.stderr}`,
    );
  }
  return run.stdout;
}

function node(cwd: string, script: string, env: Record<string, string>): string {
  return execFileSync(process.execPath, [script], { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
}

/** What an integrator's project would run: the package required (or imported) by its name, nothing else. */
const LIST_LEADS = `
const prm = createPartnerClient({ baseUrl: process.env.PRM_BASE_URL, apiKey: process.env.PRM_API_KEY });
prm
  .GET('/api/v1/vendors/partners/{partnerId}/leads', {
    params: { path: { partnerId: Number(process.env.PARTNER_ID) }, query: { perPage: 10 } },
  })
  .then(({ data, error, response }) => {
    console.log(JSON.stringify({ status: response.status, data, error }));
  });
`;
const CJS_SCRIPT = `const { createPartnerClient } = require('${PACKAGE_NAME}');\n${LIST_LEADS}`;
const ESM_SCRIPT = `import { createPartnerClient } from '${PACKAGE_NAME}';\n${LIST_LEADS}`;

/** Type-checked with the repository's TypeScript: the published declarations, not `any`. */
const TYPED_CONSUMER = `import { createPartnerClient, type Schemas } from '${PACKAGE_NAME}';

const prm = createPartnerClient({ baseUrl: 'http://localhost:3000', apiKey: 'prm_key' });
const { data } = await prm.GET('/api/v1/vendors/partners/{partnerId}/leads', {
  params: { path: { partnerId: 1 } },
});
const leads: Schemas['Lead'][] = data?.data.data ?? [];
// @ts-expect-error the path needs its partnerId
await prm.GET('/api/v1/vendors/partners/{partnerId}/leads', {});
// @ts-expect-error approvalStatus is PENDING, APPROVED or REJECTED
export const done = leads.filter((lead) => lead.approvalStatus === 'DONE');
`;

/**
 * clients/typescript as a package (clients/typescript/README.md): packed with `npm pack` (whose
 * prepack builds dist/), installed from the tarball into a scratch project with npm, offline from the
 * cache that the root's install filled with openapi-fetch, and used by name against the built server.
 */
describe('the typed client as an npm package', () => {
  let dir: string;
  let project: string;
  let packedFiles: string[];
  let scratch: ScratchDatabase;
  let server: ServerProcess;
  let apiKey: string;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'prm-client-package-'));
    const packed = JSON.parse(npm(PACKAGE_DIR, 'pack', '--json', '--pack-destination', dir)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    packedFiles = packed[0]!.files.map((file) => file.path).sort();

    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'scratch-integrator', version: '0.0.0', private: true }, null, 2)}\n`,
    );
    npm(project, 'install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed[0]!.filename));
    writeFileSync(join(project, 'list-leads.cjs'), CJS_SCRIPT);
    writeFileSync(join(project, 'list-leads.mjs'), ESM_SCRIPT);

    scratch = await createScratchDatabase();
    apiKey = createVendorWithCli(scratch.url, 'Acme').apiKey;
    server = await startServer({ DATABASE_URL: scratch.url, LOG_LEVEL: 'warn' });
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await scratch?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A call of the API with plain fetch, so that only the scripts go through the package. */
  async function call(method: string, path: string, body: unknown): Promise<{ id: number }> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'X-API-KEY': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { id: number } }).data;
  }

  it('packs the compiled client, its declarations, the manifest and the licence, and no sources', () => {
    expect(packedFiles).toEqual([
      'LICENSE',
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/schema.d.ts',
      'package.json',
    ]);
  });

  it('installs with openapi-fetch at the version the repository pins', () => {
    const installed = (name: string) =>
      JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      };
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(installed(PACKAGE_NAME).version).toBe(root.version);
    expect(installed('openapi-fetch').version).toBe(root.devDependencies['openapi-fetch']);
  });

  it('lists the leads of a partner from a CommonJS and an ES module script of another project', async () => {
    const partner = await call('POST', '/api/v1/vendors/partners', {
      companyName: 'Northwind',
      contactName: 'Nancy Davolio',
      contactEmailAddress: 'nancy@northwind.example',
      type: 'RESELLER',
    });
    const lead = await call('POST', `/api/v1/vendors/partners/${partner.id}/leads`, {
      firstName: 'Maria',
      lastName: 'Anders',
      emailAddress: 'maria@alfreds.example',
      companyName: 'Alfreds Futterkiste',
    });
    const env = { PRM_BASE_URL: server.baseUrl, PRM_API_KEY: apiKey, PARTNER_ID: String(partner.id) };

    const listed = JSON.parse(node(project, 'list-leads.cjs', env));
    expect(listed).toMatchObject({
      status: 200,
      data: {
        success: true,
        data: {
          page: 0,
          perPage: 10,
          totalItems: 1,
          data: [
            {
              id: lead.id,
              partnerId: partner.id,
              firstName: 'Maria',
              lastName: 'Anders',
              emailAddress: 'maria@alfreds.example',
              companyName: 'Alfreds Futterkiste',
              approvalStatus: 'PENDING',
              archived: false,
              submittedByType: 'API',
            },
          ],
        },
      },
    });
    expect(listed.error).toBeUndefined();
    const imported = JSON.parse(node(project, 'list-leads.mjs', env));
    expect({ status: imported.status, page: imported.data.data }).toEqual({
      status: listed.status,
      page: listed.data.data,
    });
  });

  it('answers a refused key with the error body, through the package', () => {
    const env = { PRM_BASE_URL: server.baseUrl, PRM_API_KEY: 'prm_not-a-key', PARTNER_ID: '1' };
    expect(JSON.parse(node(project, 'list-leads.cjs', env))).toMatchObject({
      status: 401,
      error: { success: false, message: 'INVALID_API_KEY' },
    });
  });

  it('gives a TypeScript project (nodenext) the typed paths and bodies', () => {
    writeFileSync(join(project, 'consumer.mts'), TYPED_CONSUMER);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          // the package's declarations are checked by its own build; here, only that they serve a caller
          skipLibCheck: true,
        },
        files: ['consumer.mts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', project], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('client:check fails, naming client:generate, when the package version is not the service version', () => {
    const stale = join(dir, 'stale-package');
    mkdirSync(stale);
    copyFileSync(join(PACKAGE_DIR, 'LICENSE'), join(stale, 'LICENSE'));
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
    writeFileSync(
      join(stale, 'package.json'),
      `${JSON.stringify({ ...manifest, version: '0.0.1' }, null, 2)}\n`,
    );
    const check = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts', 'client.js'), '--check', '--package', stale],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(
      'package.json is out of date with the code: run `npm run client:generate`',
    );
    expect(check.stderr).toContain('"version": "0.0.1"');
  });
});
