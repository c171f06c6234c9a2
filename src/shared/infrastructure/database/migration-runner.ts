import { Injectable, Logger } from '@nestjs/common';
import BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { SQLITE_BLOCKING_WAIT_MS } from './data-source-options';
import { engineOf } from './database-dialect';

const LOCK_NAME = 'prm_schema_migrations';
const LOCK_WAIT_MS = 60_000;
const LOCK_POLL_MS = 50;

/**
 * Applies pending migrations. Several processes may start at once against one database (instances,
 * the CLI beside a server), so a run holds a lock and the others wait, then find nothing left to do:
 * - MySQL: a named lock (GET_LOCK);
 * - a SQLite file: an exclusive transaction on `<file>-migrations.lock`, an empty database beside
 *   it. Without it two processes on a fresh file both created the same tables, or one's migration
 *   failed with "database is locked". The operating system releases the lock when the transaction
 *   ends or the process dies; the file stays (removing it could let a third process lock a new file
 *   while a second still waits on the old one).
 */
@Injectable()
export class MigrationRunner {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async run(): Promise<string[]> {
    if (engineOf(this.dataSource) === 'sqlite') return this.withSqliteLock(() => this.apply());
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [row] = (await runner.query('SELECT GET_LOCK(?, 60) AS acquired', [LOCK_NAME])) as {
        acquired: number | string | null;
      }[];
      if (Number(row?.acquired) !== 1) throw new Error('could not acquire the migration lock within 60 s');
      try {
        return await this.apply();
      } finally {
        await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
      }
    } finally {
      await runner.release();
    }
  }

  private async withSqliteLock<T>(work: () => Promise<T>): Promise<T> {
    const file = (this.dataSource.options as { database?: unknown }).database;
    if (typeof file !== 'string' || file === '' || file === ':memory:') return work(); // one process
    const lock = new BetterSqlite3(`${file}-migrations.lock`);
    try {
      lock.pragma('busy_timeout = 0'); // waited for here, without blocking the event loop
      for (let waited = 0; !tryBeginExclusive(lock); waited += LOCK_POLL_MS) {
        if (waited === 0) this.logger.log('waiting for another process to finish the migrations');
        if (waited >= LOCK_WAIT_MS) throw new Error('could not acquire the migration lock within 60 s');
        await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      }
      // Migrations are few and long: each statement may wait for another process's write lock up
      // to the database timeout, then the service's short blocking wait comes back.
      await this.dataSource.query(`PRAGMA busy_timeout = ${this.config.databaseTimeoutMs}`);
      try {
        return await work();
      } finally {
        await this.dataSource.query(`PRAGMA busy_timeout = ${SQLITE_BLOCKING_WAIT_MS}`);
        lock.exec('ROLLBACK');
      }
    } finally {
      lock.close();
    }
  }

  private async apply(): Promise<string[]> {
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    // One line at start, not one per migration (a new database applies them all): the names at
    // debug (docs/configuration.md, LOG_FORMAT); db:migrate prints them anyway.
    for (const migration of applied) this.logger.debug(`applied migration ${migration.name}`);
    if (applied.length > 0) this.logger.log(`applied ${applied.length} migrations`);
    return applied.map((migration) => migration.name);
  }
}

/** BEGIN EXCLUSIVE on the lock file: true when taken, false while another process holds it. */
function tryBeginExclusive(lock: BetterSqlite3.Database): boolean {
  try {
    lock.exec('BEGIN EXCLUSIVE');
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
}
