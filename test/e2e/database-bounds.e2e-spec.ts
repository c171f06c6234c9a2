import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { AppLogger } from '../../src/shared/logging.module';
import { CapturedLog } from '../support/captured-log';
import { BOUND_MS, SLACK_MS, expectUnavailable, fixture, timed } from '../support/database-bounds';
import { createTestApp } from '../support/test-app';

/**
 * docs/operations.md: every request that needs the database is answered within DATABASE_TIMEOUT_MS,
 * a busy database with 503 SERVICE_UNAVAILABLE and Retry-After, and the service serves normally
 * again once the cause ends, without a restart. The MySQL cases: database-bounds.mysql.e2e-spec.ts.
 */
describe('a SQLite file locked by another process', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'prm-lock-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a write 503 within the bound while the other holds the lock, reads go on, and writes work after', async () => {
    const url = `sqlite:${join(dir, 'app.sqlite')}`;
    const log = new CapturedLog();
    const t = await createTestApp({
      env: { DATABASE_URL: url, DATABASE_TIMEOUT_MS: String(BOUND_MS) },
      override: (b) => b.overrideProvider(AppLogger).useValue(log.logger),
    });
    const other = new BetterSqlite3(url.slice('sqlite:'.length));
    try {
      const f = await fixture(t);
      other.exec('BEGIN IMMEDIATE');
      try {
        const { result, ms } = await timed(() => f.api.put(`/leads/${f.leadId}/archive`));
        expectUnavailable(result);
        expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
        expect((await f.api.get(`/leads/${f.leadId}`)).status).toBe(200);
        // docs/operations.md: a 503 is logged at warn with the request id, and nothing at error
        const lines = log.lines<{ level: number; msg: string; status?: number; reqId?: string }>();
        const answered = lines.filter((line) => line.msg === 'request completed' && line.status === 503);
        expect(answered).toEqual([
          expect.objectContaining({ level: 40, reqId: result.headers['x-request-id'] }),
        ]);
        expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      } finally {
        other.exec('ROLLBACK');
      }
      expect((await f.api.put(`/leads/${f.leadId}/archive`)).status).toBe(200);
    } finally {
      other.close();
      await t.close();
    }
  });
});
