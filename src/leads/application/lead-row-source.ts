import { FieldError } from '../../shared/domain/domain-error';

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
