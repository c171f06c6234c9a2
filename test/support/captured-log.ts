import { Writable } from 'node:stream';
import { AppLogger, createPino } from '../../src/shared/logging.module';

/** An AppLogger whose JSON lines are kept in memory, for tests that read what the service logged. */
export class CapturedLog {
  text = '';
  readonly logger: AppLogger;

  constructor(level = 'info') {
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.text += chunk.toString();
        done();
      },
    });
    this.logger = new AppLogger(createPino(level, stream));
  }

  /** The lines written so far, parsed. */
  lines<T = Record<string, unknown>>(): T[] {
    return this.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as T);
  }
}
