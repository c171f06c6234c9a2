import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../../src/cli';
import { TypeOrmLeadBatchWriter } from '../../src/leads/infrastructure/typeorm-lead-batch-writer';
import {
  LEAD_FIELDS,
  LeadJson,
  VendorWithPartner,
  createLead,
  invitePartner,
  vendorWithPartner,
} from '../support/lead-fixtures';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { TestApp, createLeadOption, createTestApp, createVendor, unique } from '../support/test-app';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: { imported: number; rejected: number; rejectedFile: string | null; seconds: number };
}

interface RejectedLine {
  line: number;
  message: string;
  errors: { field: string; error: string }[];
  row: unknown;
}

const TAKEN = {
  field: 'emailAddress',
  error: 'a lead with this email address already exists for this partner',
};

/**
 * X13: `leads:import`, the real CLI run in-process against a database of its own (a SQLite file, or a
 * MariaDB database with test:mysql) that the real HTTP application reads too.
 */
describe('leads:import (X13)', () => {
  let scratch: ScratchDatabase;
  let t: TestApp;
  let dir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    process.env.DATABASE_URL = scratch.url;
    process.env.LOG_LEVEL = 'silent';
    delete process.env.MIGRATIONS_RUN;
    // webhooks to a local address: the test of the import's events registers one (docs/webhooks.md)
    t = await createTestApp({ env: { DATABASE_URL: scratch.url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    dir = mkdtempSync(join(tmpdir(), 'prm-import-'));
  });
  afterAll(async () => {
    await t.close();
    process.env = saved;
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  async function cli(...argv: string[]): Promise<CliRun> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
    let summary = {} as CliRun['summary'];
    if (code === 0 && !argv.includes('--help')) {
      expect(stdout.trimEnd().split('\n')).toHaveLength(1); // exactly one JSON object on stdout
      summary = JSON.parse(stdout);
    }
    return { code, stdout, stderr, summary };
  }

  function file(name: string, text: string): string {
    const path = join(dir, `${unique('f')}-${name}`);
    writeFileSync(path, text);
    return path;
  }

  const ndjson = (...rows: unknown[]) =>
    rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

  const importInto = (owner: VendorWithPartner, path: string) =>
    cli(
      'leads:import',
      '--vendor',
      String(owner.vendorId),
      '--partner',
      String(owner.partnerId),
      '--file',
      path,
    );

  function rejectedLines(path: string): RejectedLine[] {
    return readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as RejectedLine);
  }

  async function listing(
    owner: VendorWithPartner,
    query = '',
  ): Promise<{ data: LeadJson[]; totalItems: number }> {
    const response = await owner.api.get(
      `/partners/${owner.partnerId}/leads?perPage=100&sortBy=id&sortDirection=asc${query}`,
    );
    expect(response.status).toBe(200);
    return response.body.data;
  }

  async function leadRows(vendorId: number): Promise<number> {
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT COUNT(*) AS n FROM leads WHERE vendor_id = ?', [vendorId]);
    return Number(row.n);
  }

  /** History entries of the vendor's leads (X12), straight from the table. */
  async function historyRows(vendorId: number): Promise<number> {
    const [row] = await t.app
      .get(DataSource)
      .query(
        'SELECT COUNT(*) AS n FROM lead_history h JOIN leads l ON l.id = h.lead_id WHERE l.vendor_id = ?',
        [vendorId],
      );
    return Number(row.n);
  }

  const lead = (overrides: Record<string, unknown> = {}) => ({
    firstName: 'Ada',
    emailAddress: `${unique('lead')}@example.test`,
    companyName: 'Analytical Engines',
    ...overrides,
  });

  it('NDJSON: imports the valid rows, rejects the others with line and errors, prints the summary', async () => {
    const owner = await vendorWithPartner(t);
    const source = await createLeadOption(t.app, owner.vendorId, 'source', 'Web');
    const status = await createLeadOption(t.app, owner.vendorId, 'status', 'Hot');
    const ok1 = lead({ lastName: 'Lovelace', source, status, leadAge: 3, colour: 'ignored (D5)' });
    const ok2 = lead({ productsInterested: 'p'.repeat(5000) });
    const badEmail = lead({ emailAddress: 'not an email' });
    const wrongTypes = lead({ firstName: 7, leadAge: '3' });
    const otherKind = lead({ source: status });
    const dupInFile = { ...lead(), emailAddress: (ok1.emailAddress as string).toUpperCase() };
    const path = file(
      'leads.ndjson',
      ndjson(ok1, badEmail, '{"firstName": "Ada",', '', wrongTypes, '[1, 2]', otherKind, dupInFile, ok2),
    );

    const run = await importInto(owner, path);

    expect(run.code).toBe(0);
    expect(run.summary).toEqual({
      imported: 2,
      rejected: 6,
      rejectedFile: `${path}.rejected.ndjson`,
      seconds: expect.any(Number),
    });
    const rejected = rejectedLines(`${path}.rejected.ndjson`);
    expect(rejected.map((r) => [r.line, r.message])).toEqual([
      [2, 'VALIDATION_FAILED'],
      [3, 'INVALID_REQUEST'],
      [5, 'VALIDATION_FAILED'],
      [6, 'INVALID_REQUEST'],
      [7, 'VALIDATION_FAILED'],
      [8, 'DUPLICATE_ENTRY'],
    ]);
    expect(rejected[0]).toEqual({
      line: 2,
      message: 'VALIDATION_FAILED',
      errors: [{ field: 'emailAddress', error: 'must be a well-formed email address' }],
      row: badEmail,
    });
    expect(rejected[1]!.errors).toEqual([{ field: '', error: expect.stringMatching(/^not valid JSON/) }]);
    expect(rejected[1]!.row).toBe('{"firstName": "Ada",');
    expect(rejected[2]!.errors).toEqual(
      expect.arrayContaining([
        { field: 'firstName', error: 'must be a string' },
        { field: 'leadAge', error: 'must be an integer' },
      ]),
    );
    expect(rejected[3]!.errors).toEqual([{ field: '', error: 'must be a JSON object' }]);
    expect(rejected[4]!.errors).toEqual([
      { field: 'source', error: "must be the id of one of the vendor's lead source values" },
    ]);
    expect(rejected[5]!.errors).toEqual([TAKEN]);

    const listed = await listing(owner);
    expect(listed.totalItems).toBe(2);
    expect(listed.data.map((l) => l.emailAddress)).toEqual([ok1.emailAddress, ok2.emailAddress]);
    expect(listed.data[0]).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      source,
      status,
      leadAge: 3,
      approvalStatus: 'PENDING',
      archived: false,
      submittedByType: 'API',
      isDuplicate: false,
    });
  });

  it('sends no lead.created webhook for imported leads (docs/webhooks.md: the import is not an API change)', async () => {
    const owner = await vendorWithPartner(t);
    const hook = await owner.api.post('/webhooks').send({ url: 'http://127.0.0.1:9/hook', events: ['lead.created'] });
    expect(hook.status).toBe(200);
    const run = await importInto(owner, file('leads.ndjson', ndjson(lead(), lead())));
    expect(run.summary.imported).toBe(2);
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ?', [hook.body.data.id]);
    expect(Number(row.n)).toBe(0);
    await t.http.delete(`/api/v1/vendors/webhooks/${hook.body.data.id}`).set('X-API-KEY', owner.apiKey).expect(200);
  });

  it('an imported lead reads exactly like one created over the API (D26)', async () => {
    const owner = await vendorWithPartner(t);
    const body = lead({ lastName: 'Lovelace', leadAge: 0, city: 'London' });
    const viaApi = await createLead(t.http, owner.apiKey, owner.partnerId, {
      ...body,
      emailAddress: `api.${body.emailAddress}`,
    });
    expect((await importInto(owner, file('one.jsonl', ndjson(body)))).summary.imported).toBe(1);
    const imported = (await listing(owner)).data.find((l) => l.emailAddress === body.emailAddress)!;
    expect(Object.keys(imported)).toEqual(LEAD_FIELDS);
    const differing = ['id', 'emailAddress', 'createdAt', 'updatedAt'];
    const without = (l: LeadJson) =>
      Object.fromEntries(Object.entries(l).filter(([k]) => !differing.includes(k)));
    expect(without(imported)).toEqual(without(viaApi));
    expect(imported.createdAt).toBe(imported.updatedAt);
  });

  it('each imported lead has one CREATED entry in its history, apiKeyPrefix null; rejected rows and duplicates none (X12)', async () => {
    const owner = await vendorWithPartner(t);
    const existing = await createLead(t.http, owner.apiKey, owner.partnerId);
    const rows = Array.from({ length: 2100 }, (_, i) => lead({ firstName: `Row ${i}` }));
    const path = file(
      'history.ndjson',
      ndjson(...rows, lead({ emailAddress: 'bad' }), { ...lead(), emailAddress: existing.emailAddress }),
    );

    const run = await importInto(owner, path);

    expect(run.summary).toMatchObject({ imported: 2100, rejected: 2 });
    expect(await historyRows(owner.vendorId)).toBe(2101); // two batches' leads, and the API lead's own
    const imported = (await listing(owner)).data.filter((l) => l.id !== existing.id);
    const lastBatch = (await listing(owner, '&page=21')).data.at(-1)!;
    for (const one of [imported[0]!, lastBatch]) {
      const history = await owner.api.get(`/leads/${one.id}/history`);
      expect(history.status).toBe(200);
      expect(history.body.data).toEqual([
        {
          at: one.createdAt,
          action: 'CREATED',
          approvalStatusFrom: null,
          approvalStatusTo: 'PENDING',
          archived: false,
          comment: null,
          changedFields: [],
          apiKeyPrefix: null,
        },
      ]);
    }
    // a later change over the API is recorded after it, with the key that made it
    await owner.api.put(`/leads/${imported[0]!.id}/approve`).expect(200);
    const after = await owner.api.get(`/leads/${imported[0]!.id}/history`);
    expect(
      after.body.data.map((e: { action: string; apiKeyPrefix: string | null }) => [e.action, e.apiKeyPrefix]),
    ).toEqual([
      ['CREATED', null],
      ['APPROVED', owner.apiKey.slice(0, 10)],
    ]);
  });

  it('CSV: header of field names, typed number columns, quoted cells over several lines, unknown columns ignored', async () => {
    const owner = await vendorWithPartner(t);
    const source = await createLeadOption(t.app, owner.vendorId, 'source', 'Fair');
    const [a, b, c, d, e] = [1, 2, 3, 4, 5].map(() => `${unique('csv')}@example.test`);
    const csv = [
      'firstName,lastName,emailAddress,companyName,source,leadAge,notes',
      `Ada,,${a},"Engines, Ltd",${source},12,x`,
      `"Multi`,
      `line",O'Brien,${b},"Say ""hi""",,,`,
      `Bad,,${c},Co,abc,-1,`,
      `Short,row`,
      `,,${d},Co,,,`,
      '',
      `Eve,,${e},Co,${source},007,`,
      '',
    ].join('\r\n');
    const path = file('leads.csv', `\uFEFF${csv}`);

    const run = await importInto(owner, path);

    expect(run.code).toBe(0);
    expect(run.summary).toMatchObject({ imported: 3, rejected: 3 });
    const rejected = rejectedLines(`${path}.rejected.ndjson`);
    expect(rejected.map((r) => [r.line, r.message, r.errors])).toEqual([
      [
        5,
        'VALIDATION_FAILED',
        [
          { field: 'source', error: 'must be an integer written in decimal digits' },
          { field: 'leadAge', error: 'must be an integer written in decimal digits' },
        ],
      ],
      [6, 'INVALID_REQUEST', [{ field: '', error: expect.stringContaining('Invalid Record Length') }]],
      [7, 'VALIDATION_FAILED', [{ field: 'firstName', error: 'is required' }]],
    ]);
    expect(rejected[0]!.row).toEqual({
      firstName: 'Bad',
      lastName: '',
      emailAddress: c,
      companyName: 'Co',
      source: 'abc',
      leadAge: '-1',
      notes: '',
    });
    const listed = (await listing(owner)).data;
    expect(
      listed.map((l) => [l.firstName, l.lastName, l.emailAddress, l.companyName, l.source, l.leadAge]),
    ).toEqual([
      ['Ada', null, a, 'Engines, Ltd', source, 12],
      ['Multi\r\nline', "O'Brien", b, 'Say "hi"', null, null],
      ['Eve', null, e, 'Co', source, 7],
    ]);
  });

  it('isDuplicate of imported leads is computed as for API leads (D28), and totals are exact', async () => {
    const owner = await vendorWithPartner(t);
    const otherPartner = await invitePartner(t.http, owner.apiKey);
    const shared = `${unique('shared')}@example.test`;
    const other = await createLead(t.http, owner.apiKey, otherPartner, { emailAddress: shared });
    expect(other.isDuplicate).toBe(false);
    const rows = [lead({ emailAddress: shared.toUpperCase() }), lead(), lead()];
    expect((await importInto(owner, file('dup.ndjson', ndjson(...rows)))).summary).toMatchObject({
      imported: 3,
    });

    const listed = await listing(owner);
    expect(listed.totalItems).toBe(3);
    expect(listed.data.map((l) => l.isDuplicate)).toEqual([true, false, false]);
    expect((await owner.api.get(`/leads/${other.id}`)).body.data.isDuplicate).toBe(true);
    expect((await listing(owner, '&approvalStatus=PENDING')).totalItems).toBe(3);
    expect((await listing(owner, '&archived=true')).totalItems).toBe(0);
    // the maintained counts follow later changes of imported leads like those of API leads
    await owner.api.put(`/leads/${listed.data[1]!.id}/archive`).expect(200);
    expect((await listing(owner)).totalItems).toBe(2);
    expect((await listing(owner, '&archived=true')).totalItems).toBe(1);
  });

  it('a second run of the same file imports nothing and rejects every valid row as DUPLICATE_ENTRY (D27)', async () => {
    const owner = await vendorWithPartner(t);
    const rows = [lead(), lead({ leadAge: -4 }), lead()];
    const path = file('again.ndjson', ndjson(...rows));
    expect((await importInto(owner, path)).summary).toMatchObject({ imported: 2, rejected: 1 });

    const again = await importInto(owner, path);

    expect(again.code).toBe(0);
    expect(again.summary).toMatchObject({
      imported: 0,
      rejected: 3,
      rejectedFile: `${path}.rejected.ndjson`,
    });
    expect(rejectedLines(`${path}.rejected.ndjson`).map((r) => [r.line, r.message, r.errors])).toEqual([
      [1, 'DUPLICATE_ENTRY', [TAKEN]],
      [2, 'VALIDATION_FAILED', [{ field: 'leadAge', error: 'must be at least 0' }]],
      [3, 'DUPLICATE_ENTRY', [TAKEN]],
    ]);
    expect((await listing(owner)).totalItems).toBe(2);
  });

  it('an archived lead still makes its email a duplicate (D27)', async () => {
    const owner = await vendorWithPartner(t);
    const body = lead();
    const created = await createLead(t.http, owner.apiKey, owner.partnerId, body);
    await owner.api.put(`/leads/${created.id}/archive`).expect(200);
    const run = await importInto(owner, file('archived.ndjson', ndjson({ ...body, firstName: 'Again' })));
    expect(run.summary).toMatchObject({ imported: 0, rejected: 1 });
  });

  it("no rejected row: rejectedFile is null and no file is left (an earlier run's is removed)", async () => {
    const owner = await vendorWithPartner(t);
    const path = file('clean.ndjson', ndjson(lead({ emailAddress: 'bad' })));
    expect((await importInto(owner, path)).summary.rejectedFile).toBe(`${path}.rejected.ndjson`);
    writeFileSync(path, ndjson(lead()));
    const run = await importInto(owner, path);
    expect(run.summary).toMatchObject({ imported: 1, rejected: 0, rejectedFile: null });
    expect(existsSync(`${path}.rejected.ndjson`)).toBe(false);
  });

  describe('refusals: nothing written', () => {
    let owner: VendorWithPartner;
    let path: string;
    let folder: string;
    beforeAll(async () => {
      folder = join(dir, 'folder.ndjson');
      mkdirSync(folder);
      owner = await vendorWithPartner(t);
      path = file('refused.ndjson', ndjson(lead(), lead({ emailAddress: 'bad' })));
    });

    it.each([
      [
        'an unknown vendor',
        () => ['--vendor', '999999999', '--partner', String(owner.partnerId), '--file', path],
        /vendor not found/,
      ],
      [
        'an unknown partner',
        () => ['--vendor', String(owner.vendorId), '--partner', '999999999', '--file', path],
        /partner not found/,
      ],
      [
        'a missing file',
        () => [
          '--vendor',
          String(owner.vendorId),
          '--partner',
          String(owner.partnerId),
          '--file',
          join(dir, 'none.csv'),
        ],
        /ENOENT/,
      ],
      [
        'a directory',
        () => ['--vendor', String(owner.vendorId), '--partner', String(owner.partnerId), '--file', folder],
        /not a file|EISDIR/,
      ],
    ])('%s: exit 1', async (_name, args, message) => {
      const run = await cli('leads:import', ...args());
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(await leadRows(owner.vendorId)).toBe(0);
      expect(existsSync(`${path}.rejected.ndjson`)).toBe(false);
    });

    it('a partner of another vendor (D25): exit 1', async () => {
      const { vendorId } = await createVendor(t.app);
      const run = await cli(
        'leads:import',
        '--vendor',
        String(vendorId),
        '--partner',
        String(owner.partnerId),
        '--file',
        path,
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/partner not found/);
      expect(await leadRows(vendorId)).toBe(0);
    });

    it.each([
      [
        ['--vendor', '1', '--partner', '1', '--file', 'leads.txt'],
        /option '--file <path>' argument 'leads.txt' is invalid. It must end in .csv, .ndjson or .jsonl/,
      ],
      [['--vendor', '1', '--partner', '1'], /required option '--file <path>' not specified/],
      [
        ['--vendor', 'x', '--partner', '1', '--file', 'a.csv'],
        /option '--vendor <vendorId>' argument 'x' is invalid. It must be a positive integer/,
      ],
      [['--vendor', '1', '--partner', '1', '--file', 'a.csv', '--dry-run', 'yes'], /unknown option '--dry-run'/],
    ])('usage error %j: exit 2', async (args, message) => {
      const run = await cli('leads:import', ...args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
    });
  });

  it('--help lists leads:import with its options', async () => {
    const run = await cli('--help');
    expect(run.stdout).toContain('leads:import --vendor <vendorId> --partner <partnerId> --file <path>');
  });

  it('a run stopped in its second batch keeps exactly the first; running the file again imports the rest', async () => {
    const owner = await vendorWithPartner(t);
    const rows = Array.from({ length: 5000 }, (_, i) => lead({ firstName: `Row ${i}` }));
    const path = file('big.ndjson', ndjson(...rows));
    const write = TypeOrmLeadBatchWriter.prototype.write;
    let calls = 0;
    jest.spyOn(TypeOrmLeadBatchWriter.prototype, 'write').mockImplementation(async function (
      this: TypeOrmLeadBatchWriter,
      ...args: Parameters<typeof write>
    ) {
      calls += 1;
      const ids = await write.apply(this, args);
      // the second batch's rows are written, then its transaction fails: all of it must be undone
      if (calls === 2) throw new Error('connection lost');
      return ids;
    });

    const stopped = await importInto(owner, path);

    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/connection lost .*2000 leads imported/);
    expect(await leadRows(owner.vendorId)).toBe(2000);
    expect(await historyRows(owner.vendorId)).toBe(2000); // the failed batch's CREATED entries went with it (X12)
    expect((await listing(owner)).totalItems).toBe(2000);
    jest.restoreAllMocks();

    const again = await importInto(owner, path);

    expect(again.summary).toMatchObject({ imported: 3000, rejected: 2000 });
    const rejected = rejectedLines(`${path}.rejected.ndjson`);
    expect(rejected.map((r) => r.line)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(rejected.every((r) => r.message === 'DUPLICATE_ENTRY')).toBe(true);
    const listed = await listing(owner);
    expect(listed.totalItems).toBe(5000);
    expect(await leadRows(owner.vendorId)).toBe(5000);
    expect(await historyRows(owner.vendorId)).toBe(5000);
  });
});
