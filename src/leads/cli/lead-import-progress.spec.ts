import { PassThrough } from 'node:stream';
import { ImportCounts } from '../application/import-progress';
import { ProgressLines, TerminalProgressBar } from './lead-import-progress';

/** X13 (docs/bulk-import.md "Running it"): what leads:import shows on stderr while it runs. */
describe('leads:import progress', () => {
  const counts = (rows: number, bytesRead: number): ImportCounts => ({
    rows,
    imported: rows - 1,
    rejected: 1,
    bytesRead,
    totalBytes: 1000,
  });

  function capture(): { stream: PassThrough; text: () => string } {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    return { stream, text: () => text };
  }

  afterEach(() => jest.useRealTimers());

  it('off a terminal: one plain line every interval, with rows, imported, rejected, rows/s, share and time left', () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const out = capture();
    const progress = new ProgressLines(out.stream, 3000);
    progress.update(counts(100, 100)); // before the first interval: nothing
    jest.setSystemTime(new Date('2030-01-01T00:00:04Z'));
    progress.update(counts(400, 250));
    jest.setSystemTime(new Date('2030-01-01T00:00:05Z'));
    progress.update(counts(500, 300)); // within the next interval: nothing
    progress.finish();
    expect(out.text()).toBe(
      'leads:import: 400 rows read (399 imported, 1 rejected), 100 rows/s, 25% of the file, about 12 s left\n',
    );
  });

  it('on a terminal: a bar redrawn with the share of the file, rows, rows/s and time left, stopped at the end', () => {
    const out = capture();
    const bar = new TerminalProgressBar(Object.assign(out.stream, { isTTY: true, columns: 120 }));
    bar.update(counts(10, 100));
    bar.finish(counts(50, 1000));
    expect(out.text()).toMatch(/leads:import \[[^\]]+\] 100% \| 50 rows \| \d+ rows\/s \| \S+ left/);
  });
});
