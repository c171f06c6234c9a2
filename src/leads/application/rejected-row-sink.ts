import { FieldError } from '../../shared/domain/domain-error';

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
  /**
   * Flushes and closes; returns where the rows went, or null when nothing was rejected. When no row
   * was written, `replaceEarlier` says what becomes of an earlier run's rows: removed (they would
   * describe the wrong run), or, for a run that stopped on an error having changed nothing, kept.
   */
  abstract close(replaceEarlier: boolean): Promise<string | null>;
}
