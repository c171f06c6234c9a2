import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');

/** A scratch project with the layout of src/: each file a path and its source. */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'boundaries-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true } }));
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), source);
    }
    const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two modules as the repository lays them out: a public face and an internal file each. */
const MODULES = {
  'src/partners/index.ts': "export { PartnerAccess } from './application/partner-access';\n",
  'src/partners/application/partner-access.ts': 'export abstract class PartnerAccess {}\n',
  'src/partners/domain/partner.ts': 'export class Partner {}\n',
  'src/leads/index.ts': "export { LeadsModule } from './leads.module';\n",
  'src/leads/leads.module.ts': 'export class LeadsModule {}\n',
  'src/shared/domain/clock.ts': 'export abstract class Clock {}\n',
};

describe('module boundaries (docs/architecture.md, "Between modules"), checked by npm run lint', () => {
  it('passes modules that reach each other through their public faces', () => {
    const result = cruise({
      ...MODULES,
      'src/leads/application/create-lead.use-case.ts':
        "import { PartnerAccess } from '../../partners';\n" +
        `import { Clock } from '${['..', '..', 'shared', 'domain', 'clock'].join('/')}';\n` +
        'export const uses = [PartnerAccess, Clock];\n',
      'src/app.module.ts': "import { LeadsModule } from './leads';\nexport const modules = [LeadsModule];\n",
    });
    expect(result.output).not.toContain('error');
    expect(result.status).toBe(0);
  });

  describe('fails', () => {
    // One scratch project holding one violation of each rule: one run of the checker for all.
    let result: { status: number | null; output: string };
    beforeAll(() => {
      result = cruise({
        ...MODULES,
        'src/leads/application/create-lead.use-case.ts':
          "import type { Partner } from '../../partners/domain/partner';\nexport type P = Partner;\n",
        'src/shared/infrastructure/database/entities.ts':
          "import { LeadsModule } from '../../../leads';\nexport const all = [LeadsModule];\n",
        'src/app.module.ts':
          "import { LeadsModule } from './leads/leads.module';\nexport const modules = [LeadsModule];\n",
        'src/leads/application/list-leads.use-case.ts':
          "import { LeadsModule } from '../index';\nexport const module = LeadsModule;\n",
        // two modules through their public faces, each allowed alone, and a type-only import closing the circle
        'src/partners/application/partner-events.ts':
          "import { LeadsModule } from '../../leads';\nexport const modules = [LeadsModule];\n",
        'src/leads/leads.module.ts':
          "import type { PartnerAccess } from '../partners';\nexport class LeadsModule {}\nexport type P = PartnerAccess;\n",
        'src/partners/index.ts':
          "export { PartnerAccess } from './application/partner-access';\nexport * from './application/partner-events';\n",
      });
    });

    it('with a non-zero exit', () => {
      expect(result.status).not.toBe(0);
    });

    it.each([
      [
        "a deep import into another module's internals, a type-only one too",
        'no-deep-import-into-another-module',
        'src/leads/application/create-lead.use-case.ts → src/partners/domain/partner.ts',
      ],
      [
        'shared/ importing a module, even through its public face',
        'shared-imports-no-module',
        'src/shared/infrastructure/database/entities.ts → src/leads/index.ts',
      ],
      [
        'the composition root reaching past a public face',
        'composition-root-uses-public-faces',
        'src/app.module.ts → src/leads/leads.module.ts',
      ],
      [
        'a module importing its own public face',
        'no-import-of-own-public-face',
        'src/leads/application/list-leads.use-case.ts → src/leads/index.ts',
      ],
      [
        'two modules importing each other, even through their public faces and by type only',
        'no-circular',
        'src/leads/index.ts → ',
      ],
    ])('on %s', (_case, rule, edge) => {
      expect(result.output).toContain(`${rule}: ${edge}`);
    });
  });

  it('is run by npm run lint', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.lint).toMatch(/depcruise src --config \.dependency-cruiser\.cjs/);
  });
});
