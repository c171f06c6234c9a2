import { Injectable } from '@nestjs/common';
import { PartnerAccess } from '../../partners';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { DomainError, FieldError, NotFoundError } from '../../shared/domain/domain-error';
import { LeadOptionRepository, VendorDirectory } from '../../vendors';
import { Lead } from '../domain/lead';
import { LeadDetails } from '../domain/lead-details';
import { LeadHistoryEntry } from '../domain/lead-history';
import { LeadHistory } from './lead-history';
import { ImportCounts, ImportProgress } from './import-progress';
import { ImportRow, LeadRowSource } from './lead-row-source';
import { LeadBatchWriter } from './lead-batch-writer';
import { LeadRequestValidator } from './lead-request-validator';
import { RejectedRowSink, RejectionMessage } from './rejected-row-sink';
import { unknownOptionError } from './lead-option-check';
import { leadEmailTaken } from '../domain/lead-email-taken';

/** Rows per transaction: big enough that commits cost little, small enough to lose little on a stop. */
export class LeadImportSettings {
  constructor(readonly batchSize = 2000) {}
}

export interface ImportLeadsCommand {
  vendorId: number;
  partnerId: number;
  source: LeadRowSource;
  rejected: RejectedRowSink;
  progress: ImportProgress;
}

/** What `leads:import` prints (X13). */
export interface ImportSummary {
  imported: number;
  rejected: number;
  rejectedFile: string | null;
  seconds: number;
}

/** The run stopped on an error after `imported` leads had been committed; a re-run imports the rest. */
export class LeadImportInterruptedError extends Error {
  constructor(
    readonly imported: number,
    readonly rejected: number,
    cause: unknown,
  ) {
    super(
      `${cause instanceof Error ? cause.message : String(cause)} (the import stopped with ${imported} ` +
        `leads imported and ${rejected} rows rejected; running it again with the same file imports the rest)`,
      { cause },
    );
  }
}

interface Entry {
  row: ImportRow;
  lead?: Lead;
  rejection?: { message: RejectionMessage; errors: FieldError[] };
}

/** The state of one run: the batch being filled and what was counted so far. */
interface Run {
  command: ImportLeadsCommand;
  optionIds: { source: ReadonlySet<number>; status: ReadonlySet<number> };
  batch: Entry[];
  /** normalized emails of the accepted rows of this batch; earlier batches are in the database */
  emails: Set<string>;
  rows: number;
  imported: number;
  rejected: number;
}

function rejection(row: ImportRow, message: RejectionMessage, errors: FieldError[]): Entry {
  return { row, rejection: { message, errors } };
}

/** The CREATED entries of the leads a batch stored (ids[i] null: left out as a duplicate). */
function createdEntries(leads: readonly Lead[], ids: readonly (number | null)[]): LeadHistoryEntry[] {
  const entries: LeadHistoryEntry[] = [];
  for (let i = 0; i < leads.length; i++) {
    const leadId = ids[i];
    if (leadId === null || leadId === undefined) continue;
    for (const c of leads[i]!.changes) {
      entries.push({
        leadId,
        action: c.action,
        at: c.at,
        approvalStatusFrom: c.approvalStatusFrom,
        approvalStatusTo: c.approvalStatusTo,
        archived: c.archived,
        comment: c.comment,
        changedFields: c.changedFields,
        apiKeyPrefix: null,
      });
    }
  }
  return entries;
}

/**
 * X13: leads of one partner from a file, each row checked by the rules of POST leads (D13-D17,
 * D27) and stored like a lead created over the API (D26). Rows are committed in batches, one
 * transaction each, so a run stopped half-way leaves whole, valid batches, and a second run of
 * the same file rejects what is already there as DUPLICATE_ENTRY and imports the rest.
 *
 * A duplicate inside the file is found in the batch's own set of emails while the batch is open,
 * and by the database once an earlier batch is committed: memory stays flat whatever the file size.
 */
@Injectable()
export class ImportLeadsUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly vendors: VendorDirectory,
    private readonly partners: PartnerAccess,
    private readonly options: LeadOptionRepository,
    private readonly validator: LeadRequestValidator,
    private readonly writer: LeadBatchWriter,
    private readonly history: LeadHistory,
    private readonly settings: LeadImportSettings,
  ) {}

  async execute(command: ImportLeadsCommand): Promise<ImportSummary> {
    const started = this.clock.now().getTime();
    const run: Run = {
      command,
      optionIds: await this.ownerOptions(command.vendorId, command.partnerId),
      batch: [],
      emails: new Set(),
      rows: 0,
      imported: 0,
      rejected: 0,
    };
    let rejectedFile: string | null = null;
    let failure: { cause: unknown } | null = null;
    try {
      for await (const rows of command.source.rows()) {
        for (const row of rows) {
          run.rows += 1;
          run.batch.push(this.check(row, run));
          if (run.batch.length >= this.settings.batchSize) await this.flush(run);
        }
        command.progress.update(this.counts(run));
      }
      await this.flush(run);
    } catch (error) {
      failure = { cause: error };
    }
    command.progress.finish(this.counts(run));
    try {
      // a run that stopped having imported nothing changed nothing: an earlier rejected file stays
      rejectedFile = await command.rejected.close(failure === null || run.imported > 0);
    } catch (error) {
      // the rejected file could not be written or removed: say so with what is already committed
      failure ??= { cause: error };
    }
    if (failure) throw new LeadImportInterruptedError(run.imported, run.rejected, failure.cause);
    const seconds = (this.clock.now().getTime() - started) / 1000;
    return { imported: run.imported, rejected: run.rejected, rejectedFile, seconds };
  }

  /** Unknown vendor, or a partner not connected to it (D25): nothing is read or written. */
  private ownerOptions(vendorId: number, partnerId: number): Promise<Run['optionIds']> {
    return this.uow.read(async () => {
      if (!(await this.vendors.exists(vendorId))) throw new NotFoundError('vendor');
      if (!(await this.partners.isConnected(vendorId, partnerId))) throw new NotFoundError('partner');
      // D15: the vendor's options, once; a row's source/status is looked up here, not in the database.
      const options = await this.options.listForVendor(vendorId);
      const ids = (kind: string) => new Set(options.filter((o) => o.kind === kind).map((o) => o.id));
      return { source: ids('source'), status: ids('status') };
    });
  }

  /** What POST leads would answer for this row, in its order: shape and options, the domain, D27. */
  private check(row: ImportRow, run: Run): Entry {
    if (row.fields === null) return rejection(row, 'INVALID_REQUEST', row.readErrors);
    const { details, errors } = this.validator.validate(row.fields);
    if (errors.length > 0 || row.readErrors.length > 0 || !this.knownOptions(details, run)) {
      return rejection(row, 'VALIDATION_FAILED', this.allErrors(errors, row.readErrors, details, run));
    }
    let lead: Lead;
    try {
      const { vendorId, partnerId } = run.command;
      lead = Lead.submit({ vendorId, partnerId, details }, this.clock.now());
    } catch (error) {
      if (error instanceof DomainError) return rejection(row, 'VALIDATION_FAILED', error.fieldErrors);
      throw error;
    }
    // D27 inside the file: the later occurrence is the duplicate, as if the rows were posted in order.
    const email = lead.emailNormalized;
    if (run.emails.has(email)) return rejection(row, 'DUPLICATE_ENTRY', leadEmailTaken().fieldErrors);
    run.emails.add(email);
    return { row, lead };
  }

  private knownOptions(details: Partial<LeadDetails>, run: Run): boolean {
    const { source, status } = details;
    return (
      (typeof source !== 'number' || run.optionIds.source.has(source)) &&
      (typeof status !== 'number' || run.optionIds.status.has(status))
    );
  }

  /** One error per field, like POST: the shape's first, then the reader's, then D15's. */
  private allErrors(
    shapeErrors: FieldError[],
    readErrors: FieldError[],
    details: Partial<LeadDetails>,
    run: Run,
  ): FieldError[] {
    const errors = [...shapeErrors];
    const refused = (field: string) => errors.some((e) => e.field === field);
    for (const error of readErrors) if (!refused(error.field)) errors.push(error);
    for (const kind of ['source', 'status'] as const) {
      const id = details[kind];
      if (typeof id === 'number' && !run.optionIds[kind].has(id) && !refused(kind))
        errors.push(unknownOptionError(kind));
    }
    return errors;
  }

  /** Commits the batch's leads in one transaction, then records its rejected rows in line order. */
  private async flush(run: Run): Promise<void> {
    const entries = run.batch;
    run.batch = [];
    run.emails.clear();
    const accepted = entries.filter((entry) => entry.lead !== undefined);
    if (accepted.length > 0) {
      const { vendorId, partnerId } = run.command;
      const ids = await this.uow.run(async () => {
        const leads = accepted.map((entry) => entry.lead!);
        const stored = await this.writer.write(vendorId, partnerId, leads);
        // X12, X13: each lead stored gets its CREATED entry in this same transaction, as an API create
        // does; the CLI has no API key, so apiKeyPrefix is null (docs/lead-history.md).
        await this.history.append(createdEntries(leads, stored));
        return stored;
      });
      ids.forEach((id, i) => {
        if (id !== null) return;
        accepted[i]!.lead = undefined;
        accepted[i]!.rejection = { message: 'DUPLICATE_ENTRY', errors: leadEmailTaken().fieldErrors };
      });
    }
    for (const entry of entries) {
      if (entry.lead) {
        run.imported += 1;
        continue;
      }
      run.rejected += 1;
      const { message, errors } = entry.rejection!;
      await run.command.rejected.write({ line: entry.row.line, message, errors, row: entry.row.original });
    }
    run.command.progress.update(this.counts(run));
  }

  private counts(run: Run): ImportCounts {
    return {
      rows: run.rows,
      imported: run.imported,
      rejected: run.rejected,
      ...run.command.source.position(),
    };
  }
}
