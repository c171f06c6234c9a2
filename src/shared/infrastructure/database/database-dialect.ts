import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { spacedIsoDateTime } from '../../domain/date-time';

export type DatabaseEngine = 'sqlite' | 'mysql';

/**
 * The one place where the service's run-time code learns which engine it talks to (migrations have
 * their own column vocabulary, migrations/sql-dialect.ts). Everything else asks this class for the
 * piece of SQL or the setting that differs, and never compares engines itself
 * (docs/architecture.md, "One engine path").
 *
 * - SQLite (the embedded default) has one connection for the process: its transactions, and the
 *   reads beside them, take turns (`oneConnection`); a write transaction excludes every other
 *   writer, so a row needs no lock of its own.
 * - MySQL/MariaDB has a pool: transactions run side by side READ COMMITTED, and a row the rules
 *   must hold is locked with SELECT ... FOR UPDATE.
 */
@Injectable()
export class DatabaseDialect {
  readonly engine: DatabaseEngine;
  /** Whether every statement of the process shares one connection, so units of work take turns. */
  readonly oneConnection: boolean;
  /** The isolation level of the service's transactions (SQLite has only SERIALIZABLE). */
  readonly isolationLevel: IsolationLevel | undefined;
  /** `FOR UPDATE` after a SELECT that must hold its rows until the transaction ends, or nothing. */
  readonly forUpdate: string;
  /** The lock option of a TypeORM find that must hold its row until the transaction ends. */
  readonly writeLock: { mode: 'pessimistic_write' } | undefined;
  /**
   * Whether several connections may claim rows of one queue at once, each skipping the rows another
   * has locked (`FOR UPDATE SKIP LOCKED`); SQLite claims in one statement under its write lock.
   */
  readonly skipLocked: boolean;
  /** The join that makes MySQL keep the written order of two tables (SQLite plans CROSS JOIN so). */
  readonly orderedJoin: string;

  constructor(dataSource: DataSource) {
    this.engine = engineOf(dataSource);
    const mysql = this.engine === 'mysql';
    this.oneConnection = !mysql;
    this.isolationLevel = mysql ? 'READ COMMITTED' : undefined;
    this.forUpdate = mysql ? ' FOR UPDATE' : '';
    this.writeLock = mysql ? { mode: 'pessimistic_write' } : undefined;
    this.skipLocked = mysql;
    this.orderedJoin = mysql ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
  }

  /**
   * The value to bind for a DATETIME column in a parameterised query. TypeORM converts entity
   * values itself, but query parameters reach the driver as they are: SQLite keeps datetimes as
   * `YYYY-MM-DD HH:MM:SS.SSS` UTC text, mysql2 takes a Date (sent as UTC, `timezone: 'Z'`).
   */
  dateTime(date: Date): Date | string {
    return this.engine === 'sqlite' ? spacedIsoDateTime(date) : date;
  }

  /** Picks the text meant for this engine: for the few statements whose SQL differs. */
  pick<T>(choices: Record<DatabaseEngine, T>): T {
    return choices[this.engine];
  }
}

/** For the schema's own code (migrations, entity columns): which engine a data source talks to. */
export function engineOf(dataSource: DataSource): DatabaseEngine {
  return dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
}

/** A DATETIME read back by a parameterised query: a Date from mysql2, UTC text from SQLite. */
export function dateFromRow(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
}

export function nullableDateFromRow(value: unknown): Date | null {
  return value === null || value === undefined ? null : dateFromRow(value);
}
