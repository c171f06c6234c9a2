export interface WebhookDispatcherTimings {
  /** start the poll loop when the application starts (tests drive dispatchDue() by hand instead) */
  autoStart: boolean;
  pollIntervalMs: number;
  /** rows of a round driven by dispatchDue() (tests); the poll loop claims as many as lanes are free */
  batchSize: number;
  /** attempts in flight at once in each process (docs/webhooks.md, "At least once"); the poll loop claims as lanes free up */
  concurrency: number;
  /** lease on claimed deliveries; far above the 10 s an attempt may take */
  leaseMs: number;
  /** X18: an answer must come within this time */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_DISPATCHER_TIMINGS: WebhookDispatcherTimings = {
  autoStart: true,
  pollIntervalMs: 1_000,
  batchSize: 32,
  concurrency: 8,
  leaseMs: 5 * 60_000,
  timeoutMs: 10_000,
};

/**
 * X18 retry schedule (docs/webhooks.md): retry n waits base * 2^(n-1), at most base * 720, and the
 * 15th attempt is the last. With the default base of 30 s (WEBHOOK_RETRY_BASE_MS): 30 s, 1 min,
 * 2 min ... 4 h 16 min, then 6 h four times: the last attempt comes 32.5 h after the first.
 */
export const RETRY_CAP_FACTOR = 720;
export const MAX_ATTEMPTS = 15;

export function retryDelay(baseMs: number, failedAttempts: number): number {
  return Math.min(baseMs * 2 ** Math.min(failedAttempts - 1, 30), baseMs * RETRY_CAP_FACTOR);
}

/** Timings of the WebhookDispatcher, injectable so tests can stop the loop and drive rounds. */
export class WebhookDispatcherSettings implements WebhookDispatcherTimings {
  readonly autoStart: boolean;
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly timeoutMs: number;

  constructor(overrides: Partial<WebhookDispatcherTimings> = {}) {
    const t = { ...DEFAULT_WEBHOOK_DISPATCHER_TIMINGS, ...overrides };
    this.autoStart = t.autoStart;
    this.pollIntervalMs = t.pollIntervalMs;
    this.batchSize = t.batchSize;
    this.concurrency = t.concurrency;
    this.leaseMs = t.leaseMs;
    this.timeoutMs = t.timeoutMs;
  }
}
