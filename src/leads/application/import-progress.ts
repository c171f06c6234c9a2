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
