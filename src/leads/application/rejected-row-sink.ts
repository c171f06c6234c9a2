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
   * Flushes and closes; returns where the rows went, or null when nothing was rejected. `finished`
   * is false when the run stopped on an error: a run that wrote no row then leaves an earlier run's
   * rows where they are (it changed nothing), where a finished one removes them (they would mislead).
   */
  abstract close(finished: boolean): Promise<string | null>;
}
