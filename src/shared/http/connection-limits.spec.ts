import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkingIntervalFor, dropLogger, maxConnectionsFor, openFileLimit } from './connection-limits';

describe('connection limits', () => {
  it('reads the soft open-file limit from /proc/self/limits, and nothing when it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    const file = join(dir, 'limits');
    writeFileSync(
      file,
      [
        'Limit                     Soft Limit           Hard Limit           Units     ',
        'Max processes             63704                63704                processes ',
        'Max open files            20000                1048576              files     ',
      ].join('\n'),
    );
    expect(openFileLimit(file)).toBe(20000);
    writeFileSync(file, 'Max open files            unlimited            unlimited            files\n');
    expect(openFileLimit(file)).toBeUndefined();
    expect(openFileLimit(join(dir, 'missing'))).toBeUndefined();
  });

  it('caps connections below the open-file limit, keeping a reserve for everything else', () => {
    expect(maxConnectionsFor(20000)).toBe(19000);
    expect(maxConnectionsFor(1024)).toBe(921);
    expect(maxConnectionsFor(256)).toBe(192);
    expect(maxConnectionsFor(1048576)).toBe(1047576);
    expect(maxConnectionsFor(undefined)).toBe(0);
  });

  it('checks deadlines every tenth of the shorter bound, from 100 ms to 1 s', () => {
    expect(
      checkingIntervalFor({ headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, maxConnections: 0 }),
    ).toBe(1000);
    expect(checkingIntervalFor({ headersTimeoutMs: 500, requestTimeoutMs: 1000, maxConnections: 0 })).toBe(
      100,
    );
    expect(checkingIntervalFor({ headersTimeoutMs: 100, requestTimeoutMs: 100, maxConnections: 0 })).toBe(
      100,
    );
  });

  it('logs a burst of refused connections once when it starts and once when it is over', () => {
    jest.useFakeTimers();
    try {
      const logger = { warn: jest.fn(), log: jest.fn() };
      const refused = dropLogger(100, logger);
      for (let i = 0; i < 5000; i += 1) refused();
      jest.advanceTimersByTime(6000);
      refused();
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn.mock.calls[0]![1]).toContain('connection limit reached: 100 connections open');
      expect(logger.log).not.toHaveBeenCalled();

      jest.advanceTimersByTime(15_000); // quiet for 10 s: the burst is over
      expect(logger.log).toHaveBeenCalledTimes(1);
      expect(logger.log.mock.calls[0]![0]).toEqual({ maxConnections: 100, refused: 5001 });

      refused(); // a new burst warns again
      expect(logger.warn).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
