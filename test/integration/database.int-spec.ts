import { ClsService } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { MigrationRunner } from '../../src/shared/infrastructure/database/migration-runner';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { migrations } from '../../src/database';
import { ApiKeyRepository } from '../../src/vendors/application/api-key-repository';
import { VendorRepository } from '../../src/vendors/application/vendor-repository';
import { Vendor } from '../../src/vendors/domain/vendor';
import { VendorsModule } from '../../src/vendors/vendors.module';
import { createScratchDatabase } from '../support/scratch-database';
import { createTestContext, unique } from '../support/test-app';

const createContext = (env: Record<string, string> = {}) => createTestContext([VendorsModule], { env });

describe('UnitOfWork on the database under test', () => {
  let context: Awaited<ReturnType<typeof createContext>>;
  let uow: UnitOfWork;
  let vendors: VendorRepository;
  let apiKeys: ApiKeyRepository;
  let dataSource: DataSource;
  let txHost: TransactionHost<TransactionalAdapterTypeOrm>;

  beforeAll(async () => {
    context = await createContext();
    uow = context.get(UnitOfWork);
    vendors = context.get(VendorRepository);
    apiKeys = context.get(ApiKeyRepository);
    dataSource = context.get(DataSource);
    txHost = context.get(TransactionHost);
  });
  afterAll(() => context.close());

  /** Whether the current context runs inside a UnitOfWork transaction. */
  const inTransaction = () => context.get(ClsService).isActive() && txHost.isTransactionActive();

  const countVendors = async (name: string) =>
    Number(
      (
        (await dataSource.query('SELECT COUNT(*) AS n FROM vendors WHERE name LIKE ?', [`${name}%`])) as {
          n: number;
        }[]
      )[0]!.n,
    );

  it('runs 50 concurrent write transactions without collisions (SQLite: serialized top-level transactions)', async () => {
    const prefix = unique('concurrent');
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        uow.run(async () => {
          const vendor = await vendors.insert(Vendor.register(`${prefix}-${i}`, new Date()));
          // yield between statements so that the transactions really interleave
          await new Promise((resolve) => setImmediate(resolve));
          await apiKeys.insert({
            vendorId: vendor.id!,
            keyHash: unique('h').padEnd(64, '0'),
            keyPrefix: 'prm_x',
            createdAt: new Date(),
          });
        }),
      ),
    );
    expect(await countVendors(prefix)).toBe(50);
    const keys = await dataSource.query(
      'SELECT COUNT(*) AS n FROM api_keys k JOIN vendors v ON v.id = k.vendor_id WHERE v.name LIKE ?',
      [`${prefix}%`],
    );
    expect(Number(keys[0].n)).toBe(50);
  });

  it('rolls back every write of a use case that throws', async () => {
    const name = unique('rollback');
    await expect(
      uow.run(async () => {
        await vendors.insert(Vendor.register(name, new Date()));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await countVendors(name)).toBe(0);
  });

  it('joins a nested run to the outer transaction', async () => {
    const name = unique('nested');
    await expect(
      uow.run(async () => {
        await uow.run(() => vendors.insert(Vendor.register(name, new Date())));
        throw new Error('outer fails after inner returned');
      }),
    ).rejects.toThrow();
    expect(await countVendors(name)).toBe(0);
  });

  it('keeps a later transaction working after one failed', async () => {
    const name = unique('after-failure');
    await expect(uow.run(async () => Promise.reject(new Error('first fails')))).rejects.toThrow();
    await uow.run(() => vendors.insert(Vendor.register(name, new Date())));
    expect(await countVendors(name)).toBe(1);
  });

  it('saves every unit queued beside failing ones, and answers each only once it is committed', async () => {
    const prefix = unique('batch');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        uow
          .run(async () => {
            const vendor = await vendors.insert(Vendor.register(`${prefix}-${i}`, new Date()));
            await new Promise((resolve) => setImmediate(resolve));
            if (i % 3 === 0) throw new Error(`unit ${i} fails after writing`);
            return vendor.id!;
          })
          // answered means saved: a read of committed data finds the vendor at that moment
          .then(async (id) => ({ id, seen: await uow.read(() => vendors.exists(id)) })),
      ),
    );
    const saved = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
    expect(saved).toHaveLength(20);
    expect(saved.every((o) => o.seen)).toBe(true);
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(10);
    expect(await countVendors(`${prefix}-`)).toBe(20);
    const names = (await dataSource.query('SELECT name FROM vendors WHERE name LIKE ?', [`${prefix}-%`])) as {
      name: string;
    }[];
    expect(names.map((row) => Number(row.name.split('-').pop()) % 3).every((rest) => rest !== 0)).toBe(true);
  });

  it('never lets a read see uncommitted work', async () => {
    const name = unique('isolation');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let committedAt = 0;
    const writer = uow
      .run(async () => {
        await vendors.insert(Vendor.register(name, new Date()));
        await gate;
      })
      .then(() => (committedAt = performance.now()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // a read as the repositories make it, through the transaction host's EntityManager
    const committedCount = async () =>
      (
        (await txHost.tx.query('SELECT COUNT(*) AS n FROM vendors WHERE name LIKE ?', [`${name}%`])) as {
          n: number | string;
        }[]
      )[0];
    const reader = uow.read(committedCount).then((row) => ({ n: Number(row!.n), at: performance.now() }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const [, seen] = await Promise.all([writer, reader]);
    // either the read waited for the commit (SQLite), or it saw only committed data (MySQL)
    if (seen.n === 1) expect(seen.at).toBeGreaterThanOrEqual(committedAt);
    else expect(seen.n).toBe(0);
  });

  it('keeps each unit of work in its own transaction context while units overlap, and none after', async () => {
    const name = unique('context');
    const seen: boolean[] = [];
    const ids = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        uow.run(async () => {
          const vendor = await vendors.insert(Vendor.register(`${name}-${i}`, new Date()));
          await new Promise((resolve) => setImmediate(resolve));
          seen.push(inTransaction());
          return vendor.id!;
        }),
      ),
    );
    expect(seen).toEqual([true, true, true, true, true]);
    expect(inTransaction()).toBe(false);
    expect(await uow.read(() => vendors.exists(ids[4]!))).toBe(true);
    expect(inTransaction()).toBe(false);
    expect(await countVendors(name)).toBe(5);
  });
});

describe('migrations', () => {
  it('apply on an empty database, are idempotent, and revert cleanly', async () => {
    const scratch = await createScratchDatabase();
    try {
      const context = await createContext({ DATABASE_URL: scratch.url, MIGRATIONS_RUN: 'false' });
      try {
        const runner = context.get(MigrationRunner);
        expect(await runner.run()).toEqual(migrations.map((m) => new m().name));
        expect(await runner.run()).toEqual([]);
        const dataSource = context.get(DataSource);
        for (let i = 0; i < migrations.length; i++)
          await dataSource.undoLastMigration({ transaction: 'each' });
        const left: unknown[] = await dataSource.query('SELECT * FROM migrations');
        expect(left).toEqual([]);
        expect(await runner.run()).toHaveLength(migrations.length);
      } finally {
        await context.close();
      }
    } finally {
      await scratch.drop();
    }
  });

  it('apply at start when MIGRATIONS_RUN is true, from two instances at once without error', async () => {
    const scratch = await createScratchDatabase();
    try {
      const contexts = await Promise.all([
        createContext({ DATABASE_URL: scratch.url }),
        createContext({ DATABASE_URL: scratch.url }),
      ]);
      try {
        const applied: unknown[] = await contexts[0]!.get(DataSource).query('SELECT name FROM migrations');
        expect(applied).toHaveLength(migrations.length);
      } finally {
        await Promise.all(contexts.map((c) => c.close()));
      }
    } finally {
      await scratch.drop();
    }
  });
});
