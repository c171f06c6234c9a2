import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { ensureBuilt } from '../support/server-process';
import { createTestContext } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const DATA_SOURCE = 'dist/typeorm-cli.data-source.js';

/**
 * `npm run migration:generate` (docs/architecture.md, "Schema: migrations and entities"): TypeORM's
 * CLI, on the built data source file, against a database migrated by the service.
 */
describe('TypeORM CLI: migration:generate with the data source of the service', () => {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    ensureBuilt();
    scratch = await createScratchDatabase();
    const service = await createTestContext([], { env: { DATABASE_URL: scratch.url } });
    await service.close();
  });
  afterAll(() => scratch.drop());

  function typeorm(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [
          join(ROOT, 'node_modules', 'typeorm', 'cli.js'),
          'migration:generate',
          '--dataSource',
          DATA_SOURCE,
          ...args,
        ],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('finds nothing to generate on a database the migrations made (--check exits 0)', async () => {
    const run = await typeorm('--check', 'src/leads/infrastructure/nothing');
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain('No changes in database schema were found');
  });

  it('drafts the statement that makes a database agree with the entities again (--dryrun writes no file)', async () => {
    const before = readdirSync(join(ROOT, 'src', 'leads', 'infrastructure'));
    const dataSource = new DataSource({
      ...(scratch.url.startsWith('sqlite:')
        ? { type: 'better-sqlite3' as const, database: scratch.url.slice('sqlite:'.length) }
        : { type: 'mysql' as const, url: scratch.url }),
    });
    await dataSource.initialize();
    try {
      await dataSource.query(
        scratch.url.startsWith('sqlite:')
          ? 'DROP INDEX ix_leads_partner_created'
          : 'DROP INDEX ix_leads_partner_created ON leads',
      );
      const check = await typeorm('--check', 'src/leads/infrastructure/restore-index');
      expect(check.code).toBe(1);
      const draft = await typeorm('--dryrun', 'src/leads/infrastructure/restore-index');
      expect(draft.code).toBe(0);
      // identifiers in quotes (SQLite) or in escaped backquotes inside the drafted template literal (MySQL)
      const q = (name: string) => `\\\\?[\`"]${name}\\\\?[\`"]`;
      const columns = ['vendor_id', 'partner_id', 'archived', 'created_at', 'id'].map(q).join(', ');
      expect(draft.stdout).toMatch(
        new RegExp(`CREATE INDEX ${q('ix_leads_partner_created')} ON ${q('leads')} \\(${columns}\\)`),
      );
      expect(draft.stdout).not.toMatch(/DROP TABLE|DROP FOREIGN KEY|CHANGE `/);
    } finally {
      await dataSource.destroy();
    }
    expect(readdirSync(join(ROOT, 'src', 'leads', 'infrastructure'))).toEqual(before);
    expect(existsSync(join(ROOT, 'src', 'leads', 'infrastructure', 'restore-index.ts'))).toBe(false);
  });
});
