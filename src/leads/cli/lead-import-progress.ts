import { SingleBar } from 'cli-progress';
import { ImportCounts, ImportProgress } from '../application/import-progress';

function rate(counts: ImportCounts, startedAt: number): number {
  const seconds = (Date.now() - startedAt) / 1000;
  return seconds > 0 ? Math.round(counts.rows / seconds) : 0;
}

/**
 * A progress bar on a terminal's stderr (X13): how much of the file is read, rows, rows/s and the
 * time left, estimated from the bytes read so far (the row count of a file is not known before
 * the end). stdout is left to the summary.
 */
export class TerminalProgressBar extends ImportProgress {
  private readonly bar: SingleBar;
  private readonly startedAt = Date.now();
  private started = false;

  constructor(stream: NodeJS.WritableStream) {
    super();
    this.bar = new SingleBar({
      stream,
      format: 'leads:import [{bar}] {percentage}% | {rows} rows | {rate} rows/s | {eta_formatted} left',
      hideCursor: true,
      etaBuffer: 100,
      fps: 5,
    });
  }

  update(counts: ImportCounts): void {
    const payload = { rows: counts.rows, rate: rate(counts, this.startedAt) };
    if (!this.started) {
      this.bar.start(Math.max(counts.totalBytes, 1), counts.bytesRead, payload);
      this.started = true;
    } else {
      this.bar.update(counts.bytesRead, payload);
    }
  }

  finish(counts: ImportCounts): void {
    if (!this.started) return;
    this.bar.update(counts.bytesRead, { rows: counts.rows, rate: rate(counts, this.startedAt) });
    this.bar.stop();
  }
}

/**
 * Where stderr is not a terminal (a log file, CI): one plain line every few seconds instead of a
 * bar, which would fill the log with carriage returns.
 */
export class ProgressLines extends ImportProgress {
  private readonly startedAt = Date.now();
  private lastAt = this.startedAt;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly everyMs = 3000,
  ) {
    super();
  }

  update(counts: ImportCounts): void {
    const now = Date.now();
    if (now - this.lastAt < this.everyMs) return;
    this.lastAt = now;
    const perSecond = rate(counts, this.startedAt);
    const share = counts.totalBytes > 0 ? counts.bytesRead / counts.totalBytes : 0;
    const left =
      share > 0 && share < 1
        ? `, about ${Math.ceil(((now - this.startedAt) / 1000) * (1 / share - 1))} s left`
        : '';
    this.stream.write(
      `leads:import: ${counts.rows} rows read (${counts.imported} imported, ${counts.rejected} rejected), ` +
        `${perSecond} rows/s, ${Math.floor(share * 100)}% of the file${left}\n`,
    );
  }

  finish(): void {}
}
