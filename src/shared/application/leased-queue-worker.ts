import { randomUUID } from 'node:crypto';
import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../domain/clock';
import { UnitOfWork } from './unit-of-work';

/** How a worker polls and leases: every queue's settings class carries these. */
export interface LeasedQueueTimings {
  /** start polling when the application starts (tests drive rounds themselves) */
  readonly autoStart: boolean;
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  readonly leaseMs: number;
  /** rows of a round attempted at the same time (1, the default: one after another) */
  readonly concurrency?: number;
}

/** What one round did: how many rows it claimed and gave back, and how many ended each way. */
export type WorkerRound<Outcome extends string> = { claimed: number; released: number } & Record<
  Outcome,
  number
>;

/**
 * The poll loop shared by the mail outbox (D35, D36) and the webhook deliveries (X18). With
 * `concurrency` 1 (mail), a round leases a batch of due rows in one short transaction, handles them
 * one after another outside any transaction (each subclass records an outcome in a transaction of
 * its own), and gives back the lease of the rows it did not start; with more (webhooks), the loop
 * keeps that many rows in flight instead (runLanes), while `dispatchDue` still runs one round, its
 * rows `concurrency` at a time in the batch's order (tests drive the queue with it). A row of a
 * round is only started while at least half of the lease is left, so a slow destination cannot make
 * the lease run out under an attempt in progress (another instance could take it over). A full batch
 * suggests more is due: the next round starts at once; otherwise the loop waits for the poll
 * interval. When handling a row of a round throws (its outcome could not be written), no further row
 * is started: the round waits for the rows in hand and fails with that error, and the rows it did
 * not start keep their lease until it runs out.
 *
 * Stopping (D41) finishes the rows in hand (or cuts them short, where `stopSignal` is used), gives
 * back the lease of the rest of the batch, and ends the loop; stop() also waits for rounds started
 * directly (tests).
 */
export abstract class LeasedQueueWorker<Row extends { id: number }, Outcome extends string>
  implements OnApplicationBootstrap, OnModuleDestroy
{
  protected abstract readonly logger: Logger;
  private stopping = false;
  private stopController = new AbortController();
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly rounds = new Set<Promise<WorkerRound<Outcome>>>();

  protected constructor(
    protected readonly uow: UnitOfWork,
    protected readonly clock: Clock,
    private readonly timings: LeasedQueueTimings,
    /** every outcome `handle` can return, each counted in a round */
    private readonly outcomes: readonly Outcome[],
    /** names the queue in the log line of a failed round */
    private readonly queueName: string,
  ) {}

  /** Leases up to `limit` due rows to `leaseToken` and returns them (called inside a transaction). */
  protected abstract claim(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<Row[]>;
  /** Gives back the lease of rows that were not started (called inside a transaction). */
  protected abstract release(ids: number[], leaseToken: string): Promise<void>;
  /** Attempts one row and records its outcome. */
  protected abstract handle(row: Row): Promise<Outcome>;
  /** Told of each attempt's outcome (metrics). */
  protected afterAttempt(_outcome: Outcome): void {}

  /**
   * Aborted when stop() is called: an attempt that can wait on a remote party (a webhook receiver
   * that does not answer) passes it on, so that stopping is not held up by it (D41).
   */
  protected get stopSignal(): AbortSignal {
    return this.stopController.signal;
  }

  onApplicationBootstrap(): void {
    if (this.timings.autoStart) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Starts the poll loop (idempotent). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    if (this.stopController.signal.aborted) this.stopController = new AbortController();
    this.loop = this.run();
  }

  /** Ends the poll loop after the row in hand; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopController.abort();
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    await Promise.allSettled([...this.rounds]);
  }

  /** One claim/handle round; used by the poll loop, and by tests to drive the queue deterministically. */
  dispatchDue(): Promise<WorkerRound<Outcome>> {
    const round = this.runRound();
    this.rounds.add(round);
    const forget = () => this.rounds.delete(round);
    round.then(forget, forget);
    return round;
  }

  private async runRound(): Promise<WorkerRound<Outcome>> {
    const round = { claimed: 0, released: 0 } as WorkerRound<Outcome>;
    for (const outcome of this.outcomes) (round as Record<Outcome, number>)[outcome] = 0;
    if (this.stopping) return round;
    const { rows: batch, leaseToken, leaseUntil } = await this.claimDue(this.timings.batchSize);
    round.claimed = batch.length;
    const unattempted: number[] = [];
    let next = 0;
    let failure: { error: unknown } | undefined;
    // each lane takes the next row not yet taken, so the rows start in the batch's order
    const lane = async (): Promise<void> => {
      while (next < batch.length && !failure) {
        const row = batch[next++]!;
        const halfLeaseLeft = this.clock.now().getTime() < leaseUntil.getTime() - this.timings.leaseMs / 2;
        if (this.stopping || !halfLeaseLeft) {
          unattempted.push(row.id);
          continue;
        }
        try {
          const outcome = await this.handle(row);
          (round as Record<Outcome, number>)[outcome] += 1;
          this.afterAttempt(outcome);
        } catch (error) {
          // caught here, so that Promise.all below still waits for the other lanes' rows
          failure ??= { error };
          return;
        }
      }
    };
    const lanes = Math.max(1, Math.min(this.timings.concurrency ?? 1, batch.length));
    await Promise.all(Array.from({ length: lanes }, lane));
    if (failure) throw failure.error;
    if (unattempted.length > 0) {
      await this.uow.run(() => this.release(unattempted, leaseToken));
      round.released = unattempted.length;
    }
    return round;
  }

  /** Leases up to `limit` due rows to a new token, in a transaction of its own. */
  private async claimDue(limit: number): Promise<{ rows: Row[]; leaseToken: string; leaseUntil: Date }> {
    const leaseToken = randomUUID();
    const claimedAt = this.clock.now();
    const leaseUntil = new Date(claimedAt.getTime() + this.timings.leaseMs);
    const rows = await this.uow.run(() => this.claim(claimedAt, limit, leaseUntil, leaseToken));
    return { rows, leaseToken, leaseUntil };
  }

  private async run(): Promise<void> {
    const lanes = this.timings.concurrency ?? 1;
    if (lanes > 1) return this.runLanes(lanes);
    while (!this.stopping) {
      let fullBatch = false;
      try {
        const round = await this.dispatchDue();
        fullBatch = round.claimed >= this.timings.batchSize;
      } catch (error) {
        this.logger.error(`${this.queueName} round failed: ${messageOf(error)}`);
      }
      if (!fullBatch && !this.stopping) await this.pause(this.timings.pollIntervalMs);
    }
  }

  /**
   * The poll loop when several rows run at once: it claims as many due rows as lanes are free and
   * starts each at once, and claims again as soon as any of them ends, never waiting for the
   * slowest of a batch. A destination that does not answer holds its own lane, not the loop: rows
   * that come due meanwhile go out on the other lanes. With nothing due it waits for the poll
   * interval, or for a lane to free. Rows claimed while stopping are given back unstarted.
   */
  private async runLanes(lanes: number): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (!this.stopping) {
      const free = lanes - inFlight.size;
      if (free > 0) {
        try {
          const { rows, leaseToken } = await this.claimDue(free);
          if (this.stopping && rows.length > 0) {
            await this.uow.run(() =>
              this.release(
                rows.map((row) => row.id),
                leaseToken,
              ),
            );
            break;
          }
          for (const row of rows) {
            const attempt: Promise<void> = this.attemptInLane(row).finally(() => {
              inFlight.delete(attempt);
              this.wake?.();
            });
            inFlight.add(attempt);
          }
          if (rows.length === free) continue; // more may be due: fill the lanes that free up next
        } catch (error) {
          this.logger.error(`${this.queueName} claim failed: ${messageOf(error)}`);
        }
      }
      if (!this.stopping) await this.pause(this.timings.pollIntervalMs);
    }
    await Promise.all(inFlight);
  }

  /** One row on a lane of runLanes: its outcome counted, a failure to record it logged (the row keeps its lease). */
  private async attemptInLane(row: Row): Promise<void> {
    try {
      this.afterAttempt(await this.handle(row));
    } catch (error) {
      this.logger.error(`${this.queueName} row ${row.id} failed: ${messageOf(error)}`);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
