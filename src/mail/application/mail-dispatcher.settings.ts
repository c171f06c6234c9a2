export interface MailDispatcherTimings {
  /** start the poll loop when the application starts (tests may drive dispatchDue() by hand instead) */
  autoStart: boolean;
  /** pause between rounds when the previous round found nothing (or less than a full batch) */
  pollIntervalMs: number;
  /** messages claimed per round */
  batchSize: number;
  /** lease on claimed messages; another instance may take them over only after it expired */
  leaseMs: number;
  /** delay before retry n is backoffBaseMs * 2^(n-1), at most backoffMaxMs */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** attempts in all (first try included) before a message is marked failed */
  maxAttempts: number;
}

export const DEFAULT_DISPATCHER_TIMINGS: MailDispatcherTimings = {
  autoStart: true,
  pollIntervalMs: 1_000,
  batchSize: 10,
  leaseMs: 5 * 60_000,
  backoffBaseMs: 5_000,
  backoffMaxMs: 60 * 60_000,
  maxAttempts: 10,
};

/**
 * Timings of the MailDispatcher, injectable so that tests (and an operator, later) can change them:
 * `overrideProvider(MailDispatcherSettings).useValue(new MailDispatcherSettings({ backoffBaseMs: 50 }))`.
 */
export class MailDispatcherSettings implements MailDispatcherTimings {
  readonly autoStart: boolean;
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  readonly leaseMs: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly maxAttempts: number;

  constructor(overrides: Partial<MailDispatcherTimings> = {}) {
    const t = { ...DEFAULT_DISPATCHER_TIMINGS, ...overrides };
    this.autoStart = t.autoStart;
    this.pollIntervalMs = t.pollIntervalMs;
    this.batchSize = t.batchSize;
    this.leaseMs = t.leaseMs;
    this.backoffBaseMs = t.backoffBaseMs;
    this.backoffMaxMs = t.backoffMaxMs;
    this.maxAttempts = t.maxAttempts;
  }

  /** Delay before the next attempt after `failedAttempts` failures (1, 2, ...). */
  backoffAfter(failedAttempts: number): number {
    const exponent = Math.min(failedAttempts - 1, 30);
    return Math.min(this.backoffBaseMs * 2 ** exponent, this.backoffMaxMs);
  }
}
