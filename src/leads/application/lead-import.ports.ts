import { FieldError } from '../../shared/domain/domain-error';
import { Lead } from '../domain/lead';
import { LeadDetails } from '../domain/lead-details';

/**
 * Ports of the bulk import (X13). The batch writer and the request validator are services, bound
 * in the module; the row source, the rejected-row sink and the progress display belong to one run
 * (one file, one terminal) and are handed to ImportLeadsUseCase.execute by the caller.
 */

/** One row of an import file, as read and before any rule is checked. */
export interface ImportRow {
  /** the 1-based line of the file where the row starts */
  line: number;
  /** the row's fields, or null when the row could not be read as an object at all */
  fields: Record<string, unknown> | null;
  /** the row as the rejected file shows it: the object read, or the text when unreadable */
  original: unknown;
  /**
   * What the reader already refused: an unreadable row (field `""`), or a CSV cell that cannot have
   * the field's type (that field is then left out of `fields`).
   */
  readErrors: FieldError[];
}

export abstract class LeadRowSource {
  /**
   * The rows in file order, a chunk at a time as the file is read (never the whole file). Chunks,
   * not single rows: a million awaits of an async iterator cost seconds.
   */
  abstract rows(): AsyncIterable<readonly ImportRow[]>;
  /** How far the reading is, for the progress display: bytes read so far, and of the whole file. */
  abstract position(): { bytesRead: number; totalBytes: number };
}

/** Mirrors the API's error messages: what POST leads would have answered for this row. */
export type RejectionMessage = 'INVALID_REQUEST' | 'VALIDATION_FAILED' | 'DUPLICATE_ENTRY';

export interface RejectedRow {
  line: number;
  message: RejectionMessage;
  errors: FieldError[];
  row: unknown;
}

export abstract class RejectedRowSink {
  /** Rows arrive in line order, after the batch they belong to is committed. */
  abstract write(row: RejectedRow): Promise<void>;
  /** Flushes and closes; returns where the rows went, or null when nothing was rejected. */
  abstract close(): Promise<string | null>;
}

export interface ImportCounts {
  /** rows read so far */
  rows: number;
  imported: number;
  rejected: number;
  bytesRead: number;
  totalBytes: number;
}

export abstract class ImportProgress {
  /** Called every few hundred rows and after each batch; an adapter decides how often it draws. */
  abstract update(counts: ImportCounts): void;
  /** The run ended (normally or not). */
  abstract finish(counts: ImportCounts): void;
}

/**
 * POST leads' own checks of a request body (D13, D14, D16, D17, D18): the lead fields it carries
 * (unknown fields dropped, D5) and every offending field. D15's option ids are not checked here.
 */
export abstract class LeadRequestValidator {
  abstract validate(body: Record<string, unknown>): {
    details: Partial<LeadDetails>;
    errors: FieldError[];
  };
}

/**
 * Stores new leads of one (vendor, partner), inside the caller's transaction: each lead whose email
 * the partner already has (D27, archived leads included) is left out; the others are inserted and
 * counted in the listing totals like leads created one by one. The leads themselves are not changed
 * (a transaction that MySQL rolls back as a deadlock victim is run again with the same leads).
 */
export abstract class LeadBatchWriter {
  /** For each lead, in order, the id it was stored with, or null when it was left out as a duplicate. */
  abstract write(vendorId: number, partnerId: number, leads: readonly Lead[]): Promise<(number | null)[]>;
}
