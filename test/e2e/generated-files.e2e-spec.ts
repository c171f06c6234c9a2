import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { ServerProcess, ensureBuilt, startServer } from '../support/server-process';

const ROOT = join(__dirname, '..', '..');

function run(script: string, ...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'scripts', script), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 100_000, // a few seconds each, more on a machine busy with other test files
  });
}

/** Objects whose keys are not in sorted order, as JSON paths. */
function unsortedObjects(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => unsortedObjects(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const keys = Object.keys(value);
  const here = keys.join() === [...keys].sort().join() ? [] : [path];
  return [
    ...here,
    ...keys.flatMap((key) => unsortedObjects((value as Record<string, unknown>)[key], `${path}.${key}`)),
  ];
}

/** `npm run openapi` / `openapi:check` and `npm run client:generate` / `client:check` (docs/api-reference.md). */
describe('generated files: docs/openapi.json and the typed client', () => {
  let dir: string;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'prm-generated-'));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('scripts/openapi.js', () => {
    let scratch: ScratchDatabase;
    let server: ServerProcess;
    let file: string;

    beforeAll(async () => {
      file = join(dir, 'openapi.json');
      expect(run('openapi.js', '--file', file).status).toBe(0);
      scratch = await createScratchDatabase();
      server = await startServer({ DATABASE_URL: scratch.url });
    }, 120_000);
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await scratch?.drop();
    });

    it('writes the document the built server serves at /openapi.json, but for the server it lists', async () => {
      type Document = { servers: { url: string }[]; info: { version: string } };
      const served = (await (await fetch(`${server.managementUrl}/openapi.json`)).json()) as Document;
      const written = JSON.parse(readFileSync(file, 'utf8')) as Document;
      expect({ ...written, servers: served.servers }).toEqual(served);
      // the server serves its own public address; the file the defaults' (HOST 0.0.0.0, PORT 3000)
      expect(served.servers).toEqual([{ url: server.baseUrl, description: expect.any(String) }]);
      expect(written.servers).toEqual([{ ...served.servers[0], url: 'http://localhost:3000' }]);
      const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      expect([written.info.version, served.info.version]).toEqual([version, version]);
    });

    it('writes it with the keys of every object sorted, two-space indents and a trailing newline', () => {
      const text = readFileSync(file, 'utf8');
      const document = JSON.parse(text);
      expect(unsortedObjects(document)).toEqual([]);
      expect(text).toBe(`${JSON.stringify(document, null, 2)}\n`);
    });

    it('--check passes on a current file and fails, naming the fix and the line, on a stale one', () => {
      expect(run('openapi.js', '--check', '--file', file)).toMatchObject({ status: 0 });

      const stale = join(dir, 'stale-openapi.json');
      const lines = readFileSync(file, 'utf8').split('\n');
      const line = lines.findIndex((text) => text.includes('"title"'));
      lines[line] = lines[line].replace(/"title": ".*"/, '"title": "Something else"');
      writeFileSync(stale, lines.join('\n'));
      const failed = run('openapi.js', '--check', '--file', stale);
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(
        'stale-openapi.json is out of date with the code: run `npm run openapi` and commit the result.',
      );
      expect(failed.stderr).toContain(`first difference at line ${line + 1}`);
      expect(failed.stderr).toContain('"title": "Something else"');
    }, 120_000);

    it('--check fails on a missing file', () => {
      const failed = run('openapi.js', '--check', '--file', join(dir, 'nothing.json'));
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain('nothing.json is missing: run `npm run openapi`');
    }, 120_000);
  });

  describe('scripts/client.js', () => {
    let file: string;
    let generated: string;

    beforeAll(() => {
      file = join(dir, 'schema.ts');
      expect(run('client.js', '--file', file).status).toBe(0);
      generated = readFileSync(file, 'utf8');
    }, 120_000);

    it('types every path and operation of docs/openapi.json', () => {
      const document = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8')) as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      for (const [path, item] of Object.entries(document.paths)) {
        expect(generated).toContain(`'${path}': {`);
        for (const operation of Object.values(item))
          expect(generated).toContain(`${operation.operationId}: {`);
      }
    });

    it('--check passes on what it generates and fails, naming the fix, when the file was edited', () => {
      expect(run('client.js', '--check', '--file', file)).toMatchObject({ status: 0 });
      const edited = join(dir, 'edited-schema.ts');
      writeFileSync(
        edited,
        generated.replace('export interface paths {', 'export interface paths {\n  x: 1;'),
      );
      const failed = run('client.js', '--check', '--file', edited);
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(
        'edited-schema.ts is out of date with the code: run `npm run client:generate` and commit the result.',
      );
    }, 120_000);
  });
});
