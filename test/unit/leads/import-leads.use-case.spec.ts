import 'reflect-metadata';
import { ManualClock, PassThroughUnitOfWork } from '../../support/mail-fakes';
import { PartnerAccess } from '../../../src/partners';
import { NotFoundError } from '../../../src/shared/domain/domain-error';
import { LeadOption, LeadOptionRepository, VendorDirectory } from '../../../src/vendors';
import { Lead } from '../../../src/leads/domain/lead';
import { LeadHistoryEntry } from '../../../src/leads/domain/lead-history';
// The real POST validation (no database behind it), so these tests show rows judged like requests.
import { ClassValidatorLeadRequestValidator } from '../../../src/leads/http/class-validator-lead-request-validator';
import { LeadHistory } from '../../../src/leads/application/lead-history';
import {
  ImportLeadsUseCase,
  ImportSummary,
  LeadImportInterruptedError,
  LeadImportSettings,
} from '../../../src/leads/application/import-leads.use-case';
import { ImportCounts, ImportProgress } from '../../../src/leads/application/import-progress';
import { LeadBatchWriter } from '../../../src/leads/application/lead-batch-writer';
import { ImportRow, LeadRowSource } from '../../../src/leads/application/lead-row-source';
import { RejectedRow, RejectedRowSink } from '../../../src/leads/application/rejected-row-sink';

const VENDOR = 1;
const PARTNER = 7;
const OPTIONS: LeadOption[] = [
  { id: 10, vendorId: VENDOR, kind: 'source', label: 'Web' },
  { id: 20, vendorId: VENDOR, kind: 'status', label: 'Hot' },
];

/** Stores leads in a map keyed like ux_leads_partner_email; can be told to fail on its nth call. */
class InMemoryLeadBatchWriter extends LeadBatchWriter {
  readonly stored = new Map<string, { id: number; lead: Lead }>();
  readonly batches: number[] = [];
  failOnCall: number | undefined;
  private nextId = 1;

  async write(vendorId: number, partnerId: number, leads: readonly Lead[]): Promise<(number | null)[]> {
    this.batches.push(leads.length);
    if (this.batches.length === this.failOnCall) throw new Error('connection lost');
    return leads.map((lead) => {
      const key = `${vendorId}/${partnerId}/${lead.emailNormalized}`;
      if (this.stored.has(key)) return null;
      const id = this.nextId++;
      this.stored.set(key, { id, lead });
      return id;
    });
  }

  emails(): string[] {
    return [...this.stored.values()].map((s) => s.lead.details.emailAddress);
  }
}

/** Keeps the entries appended, and which batch (call) appended them. */
class InMemoryLeadHistory extends LeadHistory {
  readonly appended: LeadHistoryEntry[][] = [];
  async append(entries: readonly LeadHistoryEntry[]): Promise<void> {
    this.appended.push([...entries]);
  }
  async listForLead(leadId: number): Promise<LeadHistoryEntry[]> {
    return this.appended.flat().filter((entry) => entry.leadId === leadId);
  }
}

class ArraySource extends LeadRowSource {
  constructor(private readonly list: ImportRow[]) {
    super();
  }
  async *rows(): AsyncIterable<ImportRow[]> {
    for (let i = 0; i < this.list.length; i += 2) yield this.list.slice(i, i + 2);
  }
  position() {
    return { bytesRead: 0, totalBytes: 0 };
  }
}

class RecordingSink extends RejectedRowSink {
  readonly rows: RejectedRow[] = [];
  closed = false;
  replacedEarlier: boolean | undefined;
  async write(row: RejectedRow): Promise<void> {
    this.rows.push(row);
  }
  async close(replaceEarlier: boolean): Promise<string | null> {
    this.closed = true;
    this.replacedEarlier = replaceEarlier;
    return this.rows.length > 0 ? 'rejected.ndjson' : null;
  }
}

class RecordingProgress extends ImportProgress {
  readonly updates: ImportCounts[] = [];
  finished: ImportCounts | undefined;
  update(counts: ImportCounts): void {
    this.updates.push(counts);
  }
  finish(counts: ImportCounts): void {
    this.finished = counts;
  }
}

function setup(batchSize = 2000) {
  const writer = new InMemoryLeadBatchWriter();
  const history = new InMemoryLeadHistory();
  const vendors = new (class extends VendorDirectory {
    nameOf = jest.fn();
    exists = async (id: number) => id === VENDOR;
  })();
  const partners = new (class extends PartnerAccess {
    isConnected = async (vendorId: number, partnerId: number) => vendorId === VENDOR && partnerId === PARTNER;
  })();
  const options = new (class extends LeadOptionRepository {
    insert = jest.fn();
    listForVendor = async (vendorId: number) => OPTIONS.filter((o) => o.vendorId === vendorId);
    findForVendor = jest.fn();
  })();
  const useCase = new ImportLeadsUseCase(
    new PassThroughUnitOfWork(),
    new ManualClock(),
    vendors,
    partners,
    options,
    new ClassValidatorLeadRequestValidator(),
    writer,
    history,
    new LeadImportSettings(batchSize),
  );
  async function run(
    rows: ImportRow[],
    owner = { vendorId: VENDOR, partnerId: PARTNER },
    sink = new RecordingSink(),
  ): Promise<{ summary: ImportSummary; sink: RecordingSink; progress: RecordingProgress }> {
    const progress = new RecordingProgress();
    const summary = await useCase.execute({
      ...owner,
      source: new ArraySource(rows),
      rejected: sink,
      progress,
    });
    return { summary, sink, progress };
  }
  return { writer, history, run };
}

/** Rows on consecutive lines from line 2 (after a CSV header). */
function rows(...fields: (Record<string, unknown> | null)[]): ImportRow[] {
  return fields.map((f, i) => ({ line: i + 2, fields: f, original: f ?? 'garbage', readErrors: [] }));
}

const lead = (n: number | string, overrides: Record<string, unknown> = {}) => ({
  firstName: `Ada ${n}`,
  emailAddress: `ada${n}@example.test`,
  companyName: 'Engines',
  ...overrides,
});

const taken = [
  { field: 'emailAddress', error: 'a lead with this email address already exists for this partner' },
];

describe('ImportLeadsUseCase (X13)', () => {
  it('imports valid rows and rejects invalid ones with their line and POST errors (D13-D17)', async () => {
    const { writer, run } = setup();
    const { summary, sink } = await run(
      rows(
        lead(1),
        lead(2, { emailAddress: 'nope' }),
        lead(3, { firstName: '  ', leadAge: -1 }),
        lead(4, { leadAge: 5, source: 10, status: 20, extra: 'ignored' }),
        lead(5, { lastName: 42 }),
      ),
    );
    expect(summary).toEqual({ imported: 2, rejected: 3, rejectedFile: 'rejected.ndjson', seconds: 0 });
    expect(writer.emails()).toEqual(['ada1@example.test', 'ada4@example.test']);
    expect(sink.rows).toEqual([
      {
        line: 3,
        message: 'VALIDATION_FAILED',
        errors: [{ field: 'emailAddress', error: 'must be a well-formed email address' }],
        row: lead(2, { emailAddress: 'nope' }),
      },
      {
        line: 4,
        message: 'VALIDATION_FAILED',
        errors: expect.arrayContaining([
          { field: 'firstName', error: 'must not be empty or blank' },
          { field: 'leadAge', error: 'must be at least 0' },
        ]),
        row: lead(3, { firstName: '  ', leadAge: -1 }),
      },
      {
        line: 6,
        message: 'VALIDATION_FAILED',
        errors: [{ field: 'lastName', error: 'must be a string' }],
        row: lead(5, { lastName: 42 }),
      },
    ]);
  });

  it('stores the lead as POST would: PENDING, active, submitted by API, fields as sent (D26)', async () => {
    const { writer, run } = setup();
    await run(rows(lead(1, { emailAddress: 'Ada1@Example.TEST', leadAge: 0, lastName: null })));
    const [{ lead: stored }] = [...writer.stored.values()];
    expect(stored!.snapshot()).toMatchObject({
      vendorId: VENDOR,
      partnerId: PARTNER,
      emailAddress: 'Ada1@Example.TEST',
      leadAge: 0,
      lastName: null,
      source: null,
      approvalStatus: 'PENDING',
      archived: false,
      submittedByType: 'API',
    });
    expect(stored!.emailNormalized).toBe('ada1@example.test');
  });

  it("D15: source and status must be the vendor's options of that kind", async () => {
    const { run } = setup();
    const { summary, sink } = await run(
      rows(
        lead(1, { source: 20 }),
        lead(2, { status: 99 }),
        lead(3, { source: 'x', status: 10 }),
        lead(4, { source: 10 }),
      ),
    );
    expect(summary.imported).toBe(1);
    expect(sink.rows.map((r) => [r.line, r.errors])).toEqual([
      [2, [{ field: 'source', error: "must be the id of one of the vendor's lead source values" }]],
      [3, [{ field: 'status', error: "must be the id of one of the vendor's lead status values" }]],
      [
        4,
        [
          { field: 'source', error: 'must be an integer id' },
          { field: 'status', error: "must be the id of one of the vendor's lead status values" },
        ],
      ],
    ]);
  });

  it('D27 inside the file: the later occurrence is rejected, case-insensitively, within and across batches', async () => {
    const { writer, run } = setup(2);
    const { summary, sink } = await run(
      rows(lead(1), lead(1, { emailAddress: 'ADA1@example.test' }), lead(2), lead(3), lead(2), lead(1)),
    );
    expect(summary).toMatchObject({ imported: 3, rejected: 3 });
    expect(writer.emails()).toEqual(['ada1@example.test', 'ada2@example.test', 'ada3@example.test']);
    expect(sink.rows.map((r) => [r.line, r.message, r.errors])).toEqual([
      [3, 'DUPLICATE_ENTRY', taken],
      [6, 'DUPLICATE_ENTRY', taken],
      [7, 'DUPLICATE_ENTRY', taken],
    ]);
  });

  it('a rejected row does not make a later row with its email a duplicate', async () => {
    const { run } = setup();
    const { summary } = await run(rows(lead(1, { leadAge: 'old' }), lead(1)));
    expect(summary).toMatchObject({ imported: 1, rejected: 1 });
  });

  it('D27 against the database: emails the partner already has are DUPLICATE_ENTRY', async () => {
    const { run } = setup();
    await run(rows(lead(1), lead(2)));
    const again = await run(rows(lead(2), lead(3), lead(1)));
    expect(again.summary).toMatchObject({ imported: 1, rejected: 2 });
    expect(again.sink.rows.map((r) => [r.line, r.message])).toEqual([
      [2, 'DUPLICATE_ENTRY'],
      [4, 'DUPLICATE_ENTRY'],
    ]);
  });

  it('writes one CREATED entry per stored lead with each batch, none for rejected rows or duplicates, apiKeyPrefix null (X12)', async () => {
    const { writer, history, run } = setup(3);
    await run(rows(lead(1)));
    await run(rows(lead(2), lead(3, { emailAddress: 'bad' }), lead(1), lead(4), lead(5)));
    const idOf = (n: number) =>
      [...writer.stored.values()].find((s) => s.lead.details.firstName === `Ada ${n}`)!.id;
    // one append per batch, with exactly the leads that batch stored
    expect(history.appended.map((batch) => batch.map((e) => e.leadId))).toEqual([
      [idOf(1)],
      [idOf(2)],
      [idOf(4), idOf(5)],
    ]);
    expect(history.appended[1]).toEqual([
      {
        leadId: idOf(2),
        action: 'CREATED',
        at: new Date('2030-01-01T00:00:00.000Z'),
        approvalStatusFrom: null,
        approvalStatusTo: 'PENDING',
        archived: false,
        comment: null,
        changedFields: [],
        apiKeyPrefix: null,
      },
    ]);
  });

  it('commits in batches of the configured size and writes rejected rows in line order', async () => {
    const { writer, run } = setup(3);
    const { summary, sink, progress } = await run(
      rows(lead(1), null, lead(2), lead(3), lead(4, { emailAddress: '' }), lead(5), lead(6)),
    );
    expect(writer.batches).toEqual([2, 2, 1]); // rows 2-4, 5-7, 8: the rejected rows are not sent
    expect(summary).toMatchObject({ imported: 5, rejected: 2 });
    expect(sink.rows.map((r) => r.line)).toEqual([3, 6]);
    expect(progress.finished).toMatchObject({ rows: 7, imported: 5, rejected: 2 });
    expect(progress.updates.at(-1)).toMatchObject({ rows: 7, imported: 5, rejected: 2 });
  });

  it('an unreadable row is INVALID_REQUEST with what the reader said; read errors join the field errors', async () => {
    const { run } = setup();
    const unreadable: ImportRow = {
      line: 2,
      fields: null,
      original: '{"firstName": ',
      readErrors: [{ field: '', error: 'not a JSON object: Unexpected end of JSON input' }],
    };
    const typed: ImportRow = {
      line: 3,
      fields: lead(1, { firstName: '' }),
      original: { ...lead(1, { firstName: '' }), leadAge: 'ten' },
      readErrors: [{ field: 'leadAge', error: 'must be an integer written in decimal digits' }],
    };
    const { sink } = await run([unreadable, typed]);
    expect(sink.rows).toEqual([
      { line: 2, message: 'INVALID_REQUEST', errors: unreadable.readErrors, row: '{"firstName": ' },
      {
        line: 3,
        message: 'VALIDATION_FAILED',
        errors: [
          { field: 'firstName', error: 'must not be empty or blank' },
          { field: 'leadAge', error: 'must be an integer written in decimal digits' },
        ],
        row: typed.original,
      },
    ]);
  });

  it('no rejected row: no rejected file', async () => {
    const { run } = setup();
    const { summary, sink } = await run(rows(lead(1)));
    expect(summary.rejectedFile).toBeNull();
    expect(sink.closed).toBe(true);
    expect(sink.replacedEarlier).toBe(true);
  });

  it.each([
    ['an unknown vendor', { vendorId: 2, partnerId: PARTNER }, 'vendor not found'],
    ['a partner not connected to the vendor', { vendorId: VENDOR, partnerId: 8 }, 'partner not found'],
  ])('refuses %s before reading anything', async (_name, owner, message) => {
    const { writer, run } = setup();
    await expect(run(rows(lead(1)), owner)).rejects.toThrow(new NotFoundError(message.split(' ')[0]!));
    expect(writer.batches).toEqual([]);
  });

  it('a run stopped by a failing batch keeps the committed batches; a second run imports the rest', async () => {
    const { writer, run } = setup(2);
    const file = rows(lead(1), lead(2, { emailAddress: 'bad' }), lead(3), lead(4), lead(5), lead(6));
    writer.failOnCall = 2;
    const firstSink = new RecordingSink();
    const failed = run(file, undefined, firstSink);
    await expect(failed).rejects.toBeInstanceOf(LeadImportInterruptedError);
    await expect(failed).rejects.toMatchObject({ imported: 1, rejected: 1 });
    // it imported a lead: an earlier rejected file would describe the wrong run
    expect(firstSink.replacedEarlier).toBe(true);
    expect(writer.emails()).toEqual(['ada1@example.test']);

    writer.failOnCall = undefined;
    const again = await run(file);
    expect(again.summary).toMatchObject({ imported: 4, rejected: 2 });
    expect(again.sink.rows.map((r) => [r.line, r.message])).toEqual([
      [2, 'DUPLICATE_ENTRY'],
      [3, 'VALIDATION_FAILED'],
    ]);
    expect(writer.emails()).toHaveLength(5);
  });

  it('a run stopped before it imported or rejected anything leaves an earlier rejected file (it changed nothing)', async () => {
    const { writer, run } = setup(2);
    writer.failOnCall = 1;
    const sink = new RecordingSink();
    const failed = run(rows(lead(1), lead(2)), undefined, sink);
    await expect(failed).rejects.toMatchObject({ imported: 0, rejected: 0 });
    expect(sink.closed).toBe(true);
    expect(sink.replacedEarlier).toBe(false);
  });

  it('a rejected file that cannot be written or removed stops the run with the count already committed', async () => {
    const { writer, run } = setup(2);
    const sink = new (class extends RecordingSink {
      override async close(): Promise<string | null> {
        throw new Error('EISDIR: illegal operation on a directory');
      }
    })();
    const failed = run(rows(lead(1), lead(2), lead(3)), undefined, sink);
    await expect(failed).rejects.toBeInstanceOf(LeadImportInterruptedError);
    await expect(failed).rejects.toMatchObject({ imported: 3, rejected: 0 });
    await expect(failed).rejects.toThrow(/EISDIR.*3/);
    expect(writer.emails()).toHaveLength(3);
  });
});
