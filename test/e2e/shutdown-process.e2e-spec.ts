import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as mysql from 'mysql2/promise';
import { ScratchDatabase, createScratchDatabase } from '../support/scratch-database';
import { SERVICE_NODE, ServerProcess, ensureBuilt, startServer } from '../support/server-process';
import { isMysql } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

/** Holds the database's write lock from outside the server until `release`. */
interface HeldLock {
  partners(): Promise<number>;
  release(): Promise<void>;
}

async function holdWriteLock(url: string): Promise<HeldLock> {
  if (isMysql()) {
    const connection = await mysql.createConnection(url);
    // the invite reads and writes partners: it waits here for as long as the table is locked
    await connection.query('LOCK TABLES partners WRITE');
    return {
      partners: async () => {
        const [rows] = await connection.query('SELECT COUNT(*) AS n FROM partners');
        return Number((rows as { n: number }[])[0]!.n);
      },
      release: async () => {
        await connection.query('UNLOCK TABLES');
        await connection.end();
      },
    };
  }
  const db = new Database(url.slice('sqlite:'.length));
  db.exec('BEGIN IMMEDIATE'); // the server's BEGIN IMMEDIATE now waits, up to DATABASE_TIMEOUT_MS
  return {
    partners: async () => (db.prepare('SELECT COUNT(*) AS n FROM partners').get() as { n: number }).n,
    release: async () => {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

/**
 * D41's last clause, on the built server: a request still being handled when the 10 s are up ends
 * the process with exit status 1 (and a line saying so), without an answer and without its write.
 * The request is an invite held up by a write lock the test keeps on the database; the database
 * bound is raised so that the lock, not the bound, is what keeps it busy.
 */
describe('server process: SIGTERM while a request is still being handled (D41)', () => {
  let scratch: ScratchDatabase;
  let server: ServerProcess | undefined;
  let lock: HeldLock | undefined;

  beforeAll(async () => {
    ensureBuilt();
    scratch = await createScratchDatabase();
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await lock?.release();
    await scratch?.drop();
  });

  it('exits 1 once 10 s have passed, the request unanswered and unwritten', async () => {
    const { apiKey } = JSON.parse(
      execFileSync(SERVICE_NODE, [join(ROOT, 'dist', 'cli.js'), 'vendors:create', '--name', 'Acme'], {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: scratch.url },
        encoding: 'utf8',
      }),
    ) as { apiKey: string };
    server = await startServer({
      DATABASE_URL: scratch.url,
      DATABASE_TIMEOUT_MS: '60000',
      LOG_LEVEL: 'info',
    });
    lock = await holdWriteLock(scratch.url);

    const invite = fetch(`${server.baseUrl}/api/v1/vendors/partners`, {
      method: 'POST',
      headers: { 'X-API-KEY': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        companyName: 'Held Up',
        contactName: 'Pat',
        contactEmailAddress: 'held.up@partner.test',
      }),
    }).then(
      (response) => response.status,
      () => 'no answer',
    );
    // Time for the request to reach the handler; it then waits on the lock far beyond the test.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const signalled = Date.now();
    server.child.kill('SIGTERM');

    expect(await server.exited).toBe(1);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(9_900);
    expect(await invite).toBe('no answer');
    expect(server.output()).toContain('SIGTERM received, shutting down');
    expect(server.output()).toContain('shutdown took longer than 10 s, exiting');
    expect(await lock.partners()).toBe(0);
  }, 60_000);
});
