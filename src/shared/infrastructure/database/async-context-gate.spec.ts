import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { AsyncContextGate } from './async-context-gate';

// docs/performance.md, rule 17. Node 20's AsyncLocalStorage works by async hooks, so the gate
// applies; over async context frames (Node 24, or Node 22 with --experimental-async-context-frame)
// there are no hooks to switch off, and the gate installs nothing.
const hookBased = typeof (new AsyncLocalStorage() as unknown as { _enable?: unknown })._enable === 'function';

describe('AsyncContextGate.install', () => {
  it(`gates ${hookBased ? 'this hook-based' : 'nothing over this frame-based'} AsyncLocalStorage`, () => {
    const gate = AsyncContextGate.install(new AsyncLocalStorage<unknown>());
    if (hookBased) expect(gate).toBeInstanceOf(AsyncContextGate);
    else expect(gate).toBeNull();
    expect(AsyncContextGate.install(undefined)).toBeNull();
  });
});

function gated(): { storage: AsyncLocalStorage<string>; gate: AsyncContextGate } {
  const storage = new AsyncLocalStorage<string>();
  const gate = AsyncContextGate.install(storage as AsyncLocalStorage<unknown>);
  if (!gate) throw new Error('expected a hook-based AsyncLocalStorage');
  return { storage, gate };
}

async function storeAfterAwaits(storage: AsyncLocalStorage<string>): Promise<string | undefined> {
  await turn();
  await Promise.resolve();
  await turn();
  return storage.getStore();
}

// The cases below need a hook-based storage: over async context frames they are skipped, and the
// test above checks that nothing is installed there instead.
(hookBased ? describe : describe.skip)('AsyncContextGate over a hook-based AsyncLocalStorage', () => {
  it('switches the storage off once installed, and on only while a context is in use', async () => {
    const fresh = gated();
    expect(fresh.gate.hooksOn).toBe(false);

    let seenInside: boolean | undefined;
    const result = fresh.storage.run('unit', async () => {
      seenInside = fresh.gate.hooksOn;
      return storeAfterAwaits(fresh.storage);
    });
    expect(fresh.gate.contextsInUse).toBe(1);
    await expect(result).resolves.toBe('unit');
    expect(seenInside).toBe(true);
    expect(fresh.gate.contextsInUse).toBe(0);
    expect(fresh.gate.hooksOn).toBe(false);
    expect(fresh.storage.getStore()).toBeUndefined();
  });

  it('keeps every context whole while another one ends, and counts nested ones', async () => {
    const { storage, gate } = gated();
    let finishLong!: () => void;
    const longGate = new Promise<void>((resolve) => (finishLong = resolve));
    const long = storage.run('long', async () => {
      await longGate;
      const nested = await storage.run('nested', () => storeAfterAwaits(storage));
      return [nested, await storeAfterAwaits(storage)];
    });
    const short = storage.run('short', () => storeAfterAwaits(storage));
    await expect(short).resolves.toBe('short');
    expect(gate.contextsInUse).toBe(1);
    expect(gate.hooksOn).toBe(true);

    finishLong();
    await expect(long).resolves.toEqual(['nested', 'long']);
    expect(gate.contextsInUse).toBe(0);
    expect(gate.hooksOn).toBe(false);

    // on again for the next context, with its own store
    await expect(storage.run('again', () => storeAfterAwaits(storage))).resolves.toBe('again');
  });

  it('ends a context whose callback throws, rejects or returns no promise', async () => {
    const { storage, gate } = gated();
    expect(() =>
      storage.run('sync error', () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    await expect(
      storage.run('async error', async () => {
        await turn();
        throw new Error('async');
      }),
    ).rejects.toThrow('async');
    expect(storage.run('plain', () => storage.getStore())).toBe('plain');
    expect(gate.contextsInUse).toBe(0);
    expect(gate.hooksOn).toBe(false);
  });

  it('keeps the hooks on for good once a context is entered with enterWith', async () => {
    const { storage, gate } = gated();
    await storage.run('unit', () => storeAfterAwaits(storage));
    expect(gate.hooksOn).toBe(false);
    await storage.run('outer', async () => {
      storage.enterWith('entered');
      expect(await storeAfterAwaits(storage)).toBe('entered');
    });
    expect(gate.contextsInUse).toBe(0);
    expect(gate.hooksOn).toBe(true);
  });

  it('is installed once per storage, and not on a storage without hooks', () => {
    const { storage, gate } = gated();
    expect(AsyncContextGate.install(storage as AsyncLocalStorage<unknown>)).toBe(gate);
    // The shape of an AsyncLocalStorage over async context frames: no _enable, nothing to switch off.
    const frames = { run: jest.fn(), enterWith: jest.fn(), disable: jest.fn(), getStore: jest.fn() };
    expect(AsyncContextGate.install(frames as unknown as AsyncLocalStorage<unknown>)).toBeNull();
    expect(frames.disable).not.toHaveBeenCalled();
    expect(AsyncContextGate.install(undefined)).toBeNull();
  });
});
