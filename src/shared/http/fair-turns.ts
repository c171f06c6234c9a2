import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** The loop time a turn may give to the reads it starts, by its estimate of what one read costs. */
export const TURN_BUDGET_MS = 3;
/** Weight of the newest turn in the estimate of a read's cost (an exponential moving average). */
const NEWEST_TURN_WEIGHT = 0.2;

/**
 * Requests start their work in the order they arrived (docs/performance.md, "Reads start in the order they arrived").
 *
 * On SQLite a request's statements run synchronously, so a request holds the event loop for as long
 * as its queries take (a filtered listing: milliseconds). When every ready socket is served in the
 * same turn of the event loop, the kernel's order of ready sockets decides who waits, and under load
 * some connections wait many rounds: at 50 connections on a 4 ms request, p50 200 ms and p99 1.4 s.
 * Here a request that arrives while others wait joins a FIFO, and each turn (setImmediate) starts
 * the requests at its head, so that every turn also reads the sockets that became ready: a new
 * request is seen at once and served after the ones that came before it (p99 within 1.5x of p50 in
 * the same test).
 *
 * A turn starts as many requests as fit in TURN_BUDGET_MS by the estimated cost of one: the loop
 * time between two turns divided by the requests started in the first of them, averaged over the
 * recent turns. Slow reads (a filtered listing) go one per turn; cheap ones (a lead by id, a few
 * tens of µs) a dozen or more, sparing a turn of the loop (its poll, its timers) per request.
 *
 * A request that finds no one waiting starts at once, as long as the turn has admitted no other
 * request: an idle or lightly loaded service pays nothing. Writes skip the queue: their statements
 * already run in arrival order (the SQLite writer's queue) and queued writes must share a COMMIT.
 */
export class FairTurns {
  private readonly waiting: Array<() => void> = [];
  private head = 0;
  /** Whether a request was admitted in the current turn of the event loop. */
  private turnTaken = false;
  private nextTurnScheduled = false;
  /** Requests the last turn started, and when it began (NaN: it found the queue empty). */
  private startedSinceTurn = 0;
  private turnBegan = Number.NaN;
  /** Estimated loop time of one request, in ms: starts at the budget (one request per turn). */
  private costMs = TURN_BUDGET_MS;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The onRequest hook: calls `done` when the request may start its work. */
  readonly hook = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    if (!this.turnTaken && this.head === this.waiting.length) {
      this.turnTaken = true;
      this.scheduleNextTurn();
      return done();
    }
    this.waiting.push(done as () => void);
    this.scheduleNextTurn();
  };

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /** How many requests a turn starts now: what fits in the budget, at least one. */
  get perTurn(): number {
    return Math.max(1, Math.floor(TURN_BUDGET_MS / this.costMs));
  }

  private scheduleNextTurn(): void {
    if (this.nextTurnScheduled) return;
    this.nextTurnScheduled = true;
    setImmediate(this.nextTurn);
  }

  private readonly nextTurn = (): void => {
    this.nextTurnScheduled = false;
    const now = this.now();
    if (this.startedSinceTurn > 0 && !Number.isNaN(this.turnBegan)) {
      const sample = (now - this.turnBegan) / this.startedSinceTurn;
      this.costMs += NEWEST_TURN_WEIGHT * (sample - this.costMs);
    }
    this.startedSinceTurn = 0;
    if (this.head === this.waiting.length) {
      this.turnTaken = false;
      this.turnBegan = Number.NaN;
      return;
    }
    this.turnBegan = now;
    const admitted = this.waiting.slice(this.head, this.head + this.perTurn);
    this.waiting.fill(undefined as unknown as () => void, this.head, this.head + admitted.length);
    this.head += admitted.length;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    this.startedSinceTurn = admitted.length;
    this.turnTaken = true;
    this.scheduleNextTurn();
    for (const admit of admitted) {
      try {
        admit();
      } catch (error) {
        // as uncaught as it was before batching, without keeping the rest of the batch from starting
        process.nextTick(() => {
          throw error;
        });
      }
    }
  };
}
