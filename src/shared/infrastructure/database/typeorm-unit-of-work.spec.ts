import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { StoreUnavailableError } from '../../application/unit-of-work';
import { DatabaseDialect } from './database-dialect';
import { TypeOrmUnitOfWork } from './typeorm-unit-of-work';

/** A stand-in TransactionHost that records how transactions were opened. */
class FakeTransactionHost {
  active = false;
  opened: unknown[] = [];
  isTransactionActive() {
    return this.active;
  }
  async withTransaction<T>(optionsOrFn: unknown, maybeFn?: () => Promise<T>): Promise<T> {
    const fn = (maybeFn ?? optionsOrFn) as () => Promise<T>;
    this.opened.push(maybeFn ? optionsOrFn : undefined);
    this.active = true;
    try {
      return await fn();
    } finally {
      this.active = false;
    }
  }
}

const cls = { isActive: () => true, run: (fn: () => unknown) => fn() } as unknown as ClsService;
const dataSource = (type: string) => ({ options: { type } }) as unknown as DataSource;
const deadlock = () =>
  Object.assign(new Error('Deadlock found'), { driverError: { code: 'ER_LOCK_DEADLOCK' } });

function unitOfWork(type: string, host = new FakeTransactionHost(), databaseTimeoutMs = 5000) {
  const uow = new TypeOrmUnitOfWork(
    host as unknown as TransactionHost<TransactionalAdapterTypeOrm>,
    cls,
    new DatabaseDialect(dataSource(type)),
    { databaseTimeoutMs } as AppConfig,
  );
  return { uow, host };
}

describe('TypeOrmUnitOfWork', () => {
  it('opens MySQL transactions READ COMMITTED', async () => {
    const { uow, host } = unitOfWork('mysql');
    await uow.run(async () => 1);
    expect(host.opened).toEqual([{ isolationLevel: 'READ COMMITTED' }]);
  });

  it('runs a deadlock victim again on MySQL, and gives up after a few attempts', async () => {
    const { uow } = unitOfWork('mysql');
    let attempts = 0;
    await expect(
      uow.run(async () => {
        attempts += 1;
        if (attempts < 3) throw deadlock();
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(attempts).toBe(3);

    let forever = 0;
    await expect(
      uow.run(async () => {
        forever += 1;
        throw deadlock();
      }),
    ).rejects.toThrow('Deadlock found');
    expect(forever).toBe(5);
  });

  it('never retries other errors', async () => {
    const { uow } = unitOfWork('mysql');
    let attempts = 0;
    await expect(
      uow.run(async () => {
        attempts += 1;
        throw new Error('duplicate');
      }),
    ).rejects.toThrow('duplicate');
    expect(attempts).toBe(1);
  });

  it('serializes top-level SQLite transactions: the second starts after the first ends', async () => {
    const { uow } = unitOfWork('better-sqlite3');
    const events: string[] = [];
    const slow = uow.run(async () => {
      events.push('a:start');
      await new Promise((resolve) => setTimeout(resolve, 10));
      events.push('a:end');
    });
    const fast = uow.run(async () => {
      events.push('b:start');
      events.push('b:end');
    });
    await Promise.all([slow, fast]);
    expect(events).toEqual(['a:start', 'a:end', 'b:start', 'b:end']);
  });

  it('opens SQLite transactions without an isolation level, the only one it has', async () => {
    const { uow, host } = unitOfWork('better-sqlite3');
    await uow.run(async () => 1);
    expect(host.opened).toEqual([undefined]);
  });

  it('lets a SQLite read wait for the running transaction, and never runs it inside one', async () => {
    const { uow, host } = unitOfWork('better-sqlite3');
    const events: string[] = [];
    const write = uow.run(async () => {
      events.push('write:start');
      await new Promise((resolve) => setTimeout(resolve, 10));
      events.push('write:end');
    });
    const read = uow.read(async () => {
      events.push(`read:${host.active ? 'in a transaction' : 'alone'}`);
    });
    await Promise.all([write, read]);
    expect(events).toEqual(['write:start', 'write:end', 'read:alone']);
  });

  it('keeps the SQLite queue going after a failed transaction', async () => {
    const { uow } = unitOfWork('better-sqlite3');
    await expect(uow.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(uow.run(async () => 'next')).resolves.toBe('next');
  });

  it('answers a lock wait timeout at once as unavailable, without retrying it like a deadlock', async () => {
    const { uow } = unitOfWork('mysql');
    let attempts = 0;
    const lockWait = Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT' });
    await expect(
      uow.run(async () => {
        attempts += 1;
        throw lockWait;
      }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(attempts).toBe(1);
  });

  it('answers within the bound and never lets work that outlived it commit', async () => {
    const { uow } = unitOfWork('better-sqlite3', new FakeTransactionHost(), 50);
    let finishedWork = false;
    let committed = false;
    const slow = uow.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      finishedWork = true;
    });
    const queued = uow.run(async () => {
      committed = true;
    });
    await expect(slow).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(queued).rejects.toBeInstanceOf(StoreUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(finishedWork).toBe(true);
    expect(committed).toBe(false);
    await expect(uow.run(async () => 'next')).resolves.toBe('next');
  });
});
