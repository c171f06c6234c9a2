import { InMemoryUnitOfWork, Table } from '../../support/in-memory';

/** The double every use-case spec relies on keeps the UnitOfWork port's contract (src/shared/application/unit-of-work.ts). */
describe('InMemoryUnitOfWork', () => {
  function setup() {
    const uow = new InMemoryUnitOfWork();
    const table = uow.track(new Table<{ id: number; name: string }>());
    return { uow, table };
  }

  it('commits what the work wrote, and rolls every tracked store back when it throws', async () => {
    const { uow, table } = setup();
    await uow.run(async () => table.insert({ name: 'kept' }));
    await expect(
      uow.run(async () => {
        table.insert({ name: 'gone' });
        table.update(1, { name: 'changed' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(table.all()).toEqual([{ id: 1, name: 'kept' }]);
    expect([uow.committed, uow.rolledBack]).toEqual([1, 1]);
  });

  it('a nested run joins the outer transaction: its writes go when the outer one fails', async () => {
    const { uow, table } = setup();
    uow.failNextCommit();
    await expect(uow.run(() => uow.run(async () => table.insert({ name: 'inner' })))).rejects.toThrow(
      'the commit failed',
    );
    expect(table.all()).toEqual([]);
  });

  it('runs top-level transactions one after the other, and a read waits for the running one', async () => {
    const { uow, table } = setup();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = uow.run(async () => {
      order.push('first starts');
      table.insert({ name: 'first' });
      await held;
      order.push('first ends');
    });
    const second = uow.run(async () => void order.push('second'));
    const read = uow.read(async () => table.all().map((r) => r.name));
    await Promise.resolve();
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first starts', 'first ends', 'second']);
    expect(await read).toEqual(['first']);
  });

  it('a change committed elsewhere during a transaction survives its rollback', async () => {
    const { uow, table } = setup();
    await expect(
      uow.run(async () => {
        table.insert({ name: 'mine' });
        uow.commitElsewhere(() => table.insert({ name: 'theirs' }));
        throw new Error('boom');
      }),
    ).rejects.toThrow();
    expect(table.all().map((r) => r.name)).toEqual(['theirs']);
  });

  it('says whether the caller is inside run', async () => {
    const { uow } = setup();
    expect(uow.inTransaction).toBe(false);
    expect(await uow.run(async () => uow.inTransaction)).toBe(true);
    expect(await uow.read(async () => uow.inTransaction)).toBe(false);
  });
});
