import { Logger } from '@nestjs/common';
import { LeasedQueueTimings, LeasedQueueWorker } from '../../../src/shared/application/leased-queue-worker';
import { ManualClock, PassThroughUnitOfWork } from '../../support/mail-fakes';

/** A row's handling that the test finishes by hand. */
interface Pending {
  id: number;
  finish(outcome: 'done' | Error): void;
}

/** A queue of `rows` ids whose handling waits for the test, to watch what a round runs at once. */
class HeldWorker extends LeasedQueueWorker<{ id: number }, 'done'> {
  protected readonly logger = new Logger('HeldWorker');
  readonly started: number[] = [];
  readonly released: number[] = [];
  readonly inHand = new Map<number, Pending>();
  private onStart: (() => void) | undefined;

  constructor(
    private readonly rows: number,
    timings: Partial<LeasedQueueTimings> = {},
  ) {
    super(
      new PassThroughUnitOfWork(),
      new ManualClock(),
      { autoStart: false, pollIntervalMs: 1000, batchSize: 100, leaseMs: 60_000, ...timings },
      ['done'],
      'held',
    );
  }

  /** Resolves once `n` rows have been started. */
  async startedCount(n: number): Promise<void> {
    while (this.started.length < n) await new Promise<void>((resolve) => (this.onStart = resolve));
  }

  protected claim(_now: Date, _limit: number): Promise<{ id: number }[]> {
    return Promise.resolve(Array.from({ length: this.rows }, (_, i) => ({ id: i + 1 })));
  }

  protected release(ids: number[]): Promise<void> {
    this.released.push(...ids);
    return Promise.resolve();
  }

  protected handle(row: { id: number }): Promise<'done'> {
    this.started.push(row.id);
    return new Promise((resolve, reject) => {
      this.inHand.set(row.id, {
        id: row.id,
        finish: (outcome) => {
          this.inHand.delete(row.id);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        },
      });
      this.onStart?.();
    });
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('LeasedQueueWorker: the rows of a round', () => {
  it('handles one row at a time by default (the mail outbox)', async () => {
    const worker = new HeldWorker(3);
    const round = worker.dispatchDue();
    for (const id of [1, 2, 3]) {
      await worker.startedCount(id);
      await turn();
      expect([...worker.inHand.keys()]).toEqual([id]);
      worker.inHand.get(id)!.finish('done');
    }
    expect(await round).toEqual({ claimed: 3, released: 0, done: 3 });
  });

  it('handles `concurrency` rows at once, starting them in the batch order as lanes free up', async () => {
    const worker = new HeldWorker(7, { concurrency: 3 });
    const round = worker.dispatchDue();
    await worker.startedCount(3);
    await turn();
    expect(worker.started).toEqual([1, 2, 3]);
    worker.inHand.get(2)!.finish('done');
    await worker.startedCount(4);
    await turn();
    expect([...worker.inHand.keys()].sort()).toEqual([1, 3, 4]);
    for (let finished = 0; finished < 6; finished++) {
      const [next] = [...worker.inHand.values()];
      next!.finish('done');
      await turn();
    }
    expect(worker.started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await round).toEqual({ claimed: 7, released: 0, done: 7 });
  });

  it('starts no further row once handling one has thrown: the rows in hand finish, then the round fails, the rest keeps its lease', async () => {
    const worker = new HeldWorker(6, { concurrency: 2 });
    const round = worker.dispatchDue();
    await worker.startedCount(2);
    worker.inHand.get(1)!.finish(new Error('the outcome could not be written'));
    await turn();
    expect(worker.started).toEqual([1, 2]); // row 3 was not started in row 1's lane
    let settled = false;
    round.then(
      () => (settled = true),
      () => (settled = true),
    );
    await turn();
    expect(settled).toBe(false); // row 2 is still in hand
    worker.inHand.get(2)!.finish('done');
    await expect(round).rejects.toThrow('the outcome could not be written');
    expect(worker.started).toEqual([1, 2]);
    expect(worker.released).toEqual([]);
  });

  it('gives back the lease of the rows not started when stopped, after the rows in hand', async () => {
    const worker = new HeldWorker(5, { concurrency: 2 });
    const round = worker.dispatchDue();
    await worker.startedCount(2);
    const stopped = worker.stop();
    worker.inHand.get(1)!.finish('done');
    worker.inHand.get(2)!.finish('done');
    await stopped;
    expect(await round).toEqual({ claimed: 5, released: 3, done: 2 });
    expect(worker.released.sort()).toEqual([3, 4, 5]);
    expect(worker.started).toEqual([1, 2]);
  });
});

/** A queue of ids 1..n for the poll loop: each claim takes up to `limit` of them, and can be held. */
class PoolWorker extends HeldWorker {
  readonly claims: number[] = [];
  private pool: number[];
  holdClaims = false;
  private heldClaim: (() => void) | undefined;

  constructor(rows: number, concurrency: number) {
    super(rows, { concurrency, pollIntervalMs: 60_000 });
    this.pool = Array.from({ length: rows }, (_, i) => i + 1);
  }

  /** Lets a held claim go on. */
  releaseClaim(): void {
    this.heldClaim?.();
  }

  protected override async claim(_now: Date, limit: number): Promise<{ id: number }[]> {
    this.claims.push(limit);
    if (this.holdClaims) await new Promise<void>((resolve) => (this.heldClaim = resolve));
    return this.pool.splice(0, limit).map((id) => ({ id }));
  }
}

describe('LeasedQueueWorker: the poll loop with several lanes', () => {
  it('claims as lanes free up, without waiting for a row that is still in hand', async () => {
    const worker = new PoolWorker(5, 2);
    worker.start();
    await worker.startedCount(2);
    expect(worker.started).toEqual([1, 2]);
    worker.inHand.get(2)!.finish('done'); // row 1 stays in hand throughout
    await worker.startedCount(3);
    worker.inHand.get(3)!.finish('done');
    await worker.startedCount(4);
    worker.inHand.get(4)!.finish('done');
    await worker.startedCount(5);
    expect([...worker.inHand.keys()].sort()).toEqual([1, 5]);
    expect(worker.claims).toEqual([2, 1, 1, 1]); // each claim asks for the free lanes only
    const stopped = worker.stop();
    worker.inHand.get(1)!.finish('done');
    worker.inHand.get(5)!.finish('done');
    await stopped;
    expect(worker.released).toEqual([]);
  });

  it('gives back unstarted the rows a claim returns once stopping has begun', async () => {
    const worker = new PoolWorker(5, 3);
    worker.holdClaims = true;
    worker.start();
    await turn();
    expect(worker.claims).toEqual([3]);
    const stopped = worker.stop();
    worker.releaseClaim();
    await stopped;
    expect(worker.started).toEqual([]);
    expect(worker.released).toEqual([1, 2, 3]);
  });

  it('logs a row whose outcome could not be written and goes on with the others', async () => {
    const worker = new PoolWorker(3, 2);
    const errors: string[] = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => {
      errors.push(String(message));
    });
    worker.start();
    await worker.startedCount(2);
    worker.inHand.get(1)!.finish(new Error('the outcome could not be written'));
    await worker.startedCount(3);
    worker.inHand.get(2)!.finish('done');
    worker.inHand.get(3)!.finish('done');
    await worker.stop();
    expect(errors).toEqual(['held row 1 failed: the outcome could not be written']);
    jest.restoreAllMocks();
  });
});
