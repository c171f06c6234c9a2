import { AsyncLocalStorage } from 'node:async_hooks';
import { UnitOfWork } from '../../../src/shared/application/unit-of-work';
import { Clock } from '../../../src/shared/domain/clock';

/**
 * In-memory adapters for unit tests of use cases (docs/architecture.md "Tests"): the ports of
 * src/shared/application and src/shared/domain, and the table every other in-memory adapter keeps
 * its rows in.
 */

/** A store whose state a transaction can save and put back. */
export interface Transactional {
  snapshot(): unknown;
  restore(state: unknown): void;
}

interface Transaction {
  /** changes "committed by another request" during this one, made again after a rollback */
  committedElsewhere: (() => void)[];
}

/**
 * The UnitOfWork port over in-memory stores, with the contract of the SQL adapter:
 * - `run` is one transaction: a nested `run` joins the outer one, and a thrown error rolls back every
 *   change the work made to the tracked stores (they are saved when the transaction starts and put
 *   back), so "nothing is written on failure" can be asserted;
 * - top-level transactions run one after the other, as on SQLite, so a test may fire concurrent
 *   calls and each sees what the previous one committed;
 * - `read` runs without a transaction, after the running one (it never sees uncommitted work).
 *
 * Tests can make the next transaction fail once its work is done (`failNextCommit`), and make a
 * change "committed by a concurrent request" in the middle of one (`commitElsewhere`).
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  private readonly stores: Transactional[] = [];
  private readonly current = new AsyncLocalStorage<Transaction>();
  private queue: Promise<unknown> = Promise.resolve();
  private failure: Error | undefined;
  committed = 0;
  rolledBack = 0;

  /** Registers a store whose changes transactions commit or roll back. */
  track<T extends Transactional>(store: T): T {
    this.stores.push(store);
    return store;
  }

  /** Whether the caller runs inside `run` (the outbox ports refuse to write outside one). */
  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const result = this.queue.then(() => this.transaction(work));
    this.queue = result.catch(() => undefined);
    return result;
  }

  read<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    return this.queue.then(work);
  }

  /** The next top-level transaction throws `error` after its work, instead of committing. */
  failNextCommit(error = new Error('the commit failed')): void {
    this.failure = error;
  }

  /**
   * Applies `change` as if another request had committed it just now: it is visible at once, and
   * it survives a rollback of the transaction in progress (it is applied again after the restore).
   */
  commitElsewhere(change: () => void): void {
    change();
    this.current.getStore()?.committedElsewhere.push(change);
  }

  private async transaction<T>(work: () => Promise<T>): Promise<T> {
    const transaction: Transaction = { committedElsewhere: [] };
    const saved = this.stores.map((store) => store.snapshot());
    try {
      const result = await this.current.run(transaction, work);
      const failure = this.failure;
      this.failure = undefined;
      if (failure) throw failure;
      this.committed += 1;
      return result;
    } catch (error) {
      this.stores.forEach((store, i) => store.restore(saved[i]));
      for (const change of transaction.committedElsewhere) change();
      this.rolledBack += 1;
      throw error;
    }
  }
}

/**
 * Rows of one table, keyed by an id the table gives (ids are never reused, as MySQL's
 * AUTO_INCREMENT). Rows are plain data, copied in and out, so what a caller holds is never the
 * stored row (as with a database).
 */
export class Table<Row extends { id: number }> implements Transactional {
  private rows = new Map<number, Row>();
  private lastId = 0;

  insert(values: Omit<Row, 'id'>): Row {
    const row = { ...structuredClone(values), id: ++this.lastId } as Row;
    this.rows.set(row.id, row);
    return structuredClone(row);
  }

  get(id: number): Row | undefined {
    const row = this.rows.get(id);
    return row && structuredClone(row);
  }

  /** Merges `changes` into the row; false when there is no such row. */
  update(id: number, changes: Partial<Omit<Row, 'id'>>): boolean {
    const row = this.rows.get(id);
    if (!row) return false;
    this.rows.set(id, { ...row, ...structuredClone(changes), id });
    return true;
  }

  delete(id: number): boolean {
    return this.rows.delete(id);
  }

  /** The rows (copies) in id order, optionally those `where` accepts. */
  all(where: (row: Row) => boolean = () => true): Row[] {
    return [...this.rows.values()].filter(where).map((row) => structuredClone(row));
  }

  find(where: (row: Row) => boolean): Row | undefined {
    for (const row of this.rows.values()) if (where(row)) return structuredClone(row);
    return undefined;
  }

  get size(): number {
    return this.rows.size;
  }

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Map<number, Row>;
  }
}

/** A clock that only moves when told to. */
export class ManualClock extends Clock {
  private current: number;

  constructor(start: Date | string = '2030-01-01T00:00:00.000Z') {
    super();
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): Date {
    this.current = new Date(at).getTime();
    return this.now();
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
}

/** One page of `items` (a zero-based page of perPage items), as the SQL adapters' LIMIT/OFFSET. */
export function pageOf<T>(items: T[], page: number, perPage: number): T[] {
  return items.slice(page * perPage, page * perPage + perPage);
}

/** Compares strings by Unicode code point, as the listings sort normalized keys (X9). */
export function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
