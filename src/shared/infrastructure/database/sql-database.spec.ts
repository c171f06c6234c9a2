import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { sqliteDateTime } from './database-engine';
import { SqlDatabase, dateFromRow, nullableDateFromRow } from './sql-database';

describe('DATETIME values read back by hand-written SQL', () => {
  it.each([
    '2026-11-23T06:09:12.345Z',
    '1970-01-01T00:00:00.000Z',
    '2024-02-29T23:59:59.999Z',
    '9999-12-31T23:59:59.999Z',
  ])('reads SQLite text %s back as the same instant (D1)', (iso) => {
    expect(dateFromRow(sqliteDateTime(new Date(iso))).toISOString()).toBe(iso);
  });

  it('reads text without milliseconds, ISO text, a Date from mysql2 and null', () => {
    expect(dateFromRow('2026-11-23 06:09:12').toISOString()).toBe('2026-11-23T06:09:12.000Z');
    expect(dateFromRow('2026-11-23T06:09:12.345Z').toISOString()).toBe('2026-11-23T06:09:12.345Z');
    const date = new Date();
    expect(dateFromRow(date)).toBe(date);
    expect(nullableDateFromRow(null)).toBeNull();
  });
});

/** A stand-in better-sqlite3 connection whose COMMIT fails, and which may refuse to roll back. */
class FailingConnection {
  readonly name = ':memory:';
  inTransaction = false;
  closed = false;
  readonly executed: string[] = [];
  constructor(private readonly refuseRollback = false) {}
  pragma(): void {}
  exec(sql: string): void {
    this.executed.push(sql);
    if (sql === 'BEGIN IMMEDIATE') this.inTransaction = true;
    // A COMMIT refused for a deferred constraint keeps the transaction open (SQLite does so).
    if (sql === 'COMMIT')
      throw Object.assign(new Error('FOREIGN KEY constraint failed'), {
        code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
      });
    if (sql === 'ROLLBACK') {
      if (this.refuseRollback) throw new Error('cannot rollback');
      this.inTransaction = false;
    }
  }
  close(): void {
    this.closed = true;
  }
}

function sqliteDatabase(connection: FailingConnection) {
  const store = new Map<string, unknown>();
  const cls = {
    isActive: () => true,
    get: (k: string) => store.get(k),
    set: (k: string, v: unknown) => store.set(k, v),
  };
  const fresh = new FailingConnection();
  const driver = { databaseConnection: connection as unknown, createDatabaseConnection: async () => fresh };
  const dataSource = { options: { type: 'better-sqlite3' }, isInitialized: true, driver };
  const db = new SqlDatabase(
    {} as never,
    cls as unknown as ClsService,
    dataSource as unknown as DataSource,
    { databaseTimeoutMs: 1000 } as AppConfig,
  );
  return { db, driver, fresh };
}

describe('SqlDatabase.sqliteTransaction after a failed COMMIT', () => {
  it('rolls the connection back, so no later work runs inside the failed transaction', async () => {
    const connection = new FailingConnection();
    const { db, driver } = sqliteDatabase(connection);
    await expect(db.sqliteTransaction(async () => 'done')).rejects.toThrow('FOREIGN KEY');
    expect(connection.executed).toEqual([
      'BEGIN IMMEDIATE',
      'SAVEPOINT unit_of_work',
      'RELEASE unit_of_work',
      'COMMIT',
      'ROLLBACK',
    ]);
    expect(connection.inTransaction).toBe(false);
    expect(driver.databaseConnection).toBe(connection);
    expect(db.inTransaction).toBe(false);
  });

  it('replaces a connection that cannot leave its transaction', async () => {
    const connection = new FailingConnection(true);
    const { db, driver, fresh } = sqliteDatabase(connection);
    await expect(db.sqliteTransaction(async () => 'done')).rejects.toThrow('FOREIGN KEY');
    expect(connection.closed).toBe(true);
    expect(driver.databaseConnection).toBe(fresh);
  });
});
