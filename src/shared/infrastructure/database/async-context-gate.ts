import type { AsyncLocalStorage } from 'node:async_hooks';

/** The parts of a hook-based AsyncLocalStorage (Node 20, Node 22 without async context frames) used here. */
interface HookBasedStorage {
  run(store: unknown, callback: (...args: unknown[]) => unknown, ...args: unknown[]): unknown;
  enterWith(store: unknown): void;
  disable(): void;
  _enable(): void;
  enabled: boolean;
}

const GATED = Symbol('AsyncContextGate');

/**
 * Keeps Node's promise hooks off while no context of an AsyncLocalStorage is in use
 * (docs/performance.md, rule 17).
 *
 * On Node 20 an AsyncLocalStorage propagates its store with async hooks: once a context has been
 * entered, a hook runs for every promise the process creates and every promise reaction it runs,
 * in every request, whether or not that request has a context. On SQLite only writes enter the
 * unit of work's contexts, and most requests have none, yet the hooks cost a GET lead
 * about a sixth of its CPU. The gate counts the contexts in use: `run` opens one, and it stays in
 * use until the callback returns, or, when the callback returns a promise, until that promise
 * settles. When the last one ends, the storage is disabled, and Node removes the hooks if no other
 * storage uses them; the next `run` enables it again (Node's own `run` does). Disabling takes no
 * store away from a context: while it is disabled no context is in use, and a continuation of a
 * context that has ended sees no store, as code outside every context does.
 *
 * A context that has no end the gate can see keeps the hooks on for good: `enterWith` pins them.
 * Work a context starts and does not await (a timer, a promise left running) must not rely on its
 * store after the callback's promise settled; no code of this service does.
 *
 * With async context frames (Node 24, or Node 22 with `--experimental-async-context-frame`) an
 * AsyncLocalStorage uses no hook and has nothing to switch off: `install` leaves it as it is.
 */
export class AsyncContextGate {
  private inUse = 0;
  private pinned = false;

  private constructor(private readonly storage: HookBasedStorage) {
    const run = storage.run;
    const enterWith = storage.enterWith;
    storage.run = (store, callback, ...args) => this.run(run, store, callback, args);
    storage.enterWith = (store) => {
      this.pinned = true;
      enterWith.call(storage, store);
    };
    this.closeIfIdle();
  }

  /**
   * Gates `storage` once (later calls answer the same gate). Null when the storage does not work
   * by async hooks: there is nothing to switch off.
   */
  static install(storage: AsyncLocalStorage<unknown> | undefined): AsyncContextGate | null {
    if (!storage) return null;
    const candidate = storage as unknown as Partial<HookBasedStorage> & { [GATED]?: AsyncContextGate };
    if (candidate[GATED]) return candidate[GATED];
    if (typeof candidate._enable !== 'function' || typeof candidate.enabled !== 'boolean') return null;
    const gate = new AsyncContextGate(candidate as HookBasedStorage);
    candidate[GATED] = gate;
    return gate;
  }

  /** Contexts in use right now. */
  get contextsInUse(): number {
    return this.inUse;
  }

  /** Whether the storage (and so, unless another storage needs them, the promise hooks) is on. */
  get hooksOn(): boolean {
    return this.storage.enabled;
  }

  private run(
    run: HookBasedStorage['run'],
    store: unknown,
    callback: (...args: unknown[]) => unknown,
    args: unknown[],
  ): unknown {
    this.inUse += 1;
    let result: unknown;
    try {
      result = run.call(this.storage, store, callback, ...args);
    } catch (error) {
      this.release();
      throw error;
    }
    if (!(result instanceof Promise)) {
      this.release();
      return result;
    }
    return result.then(
      (value: unknown) => {
        this.release();
        return value;
      },
      (error: unknown) => {
        this.release();
        throw error;
      },
    );
  }

  private release(): void {
    this.inUse -= 1;
    this.closeIfIdle();
  }

  private closeIfIdle(): void {
    if (this.inUse === 0 && !this.pinned) this.storage.disable();
  }
}
