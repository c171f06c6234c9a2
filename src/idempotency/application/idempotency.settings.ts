/**
 * Timings of the Idempotency-Key machinery (docs/idempotency.md). Bound from AppConfig in
 * IdempotencyModule; tests replace it with one provider line.
 */
export class IdempotencySettings {
  /**
   * How long a claim holds a key before another request may take it over (the holder is presumed
   * dead). Longer than any request can run: see IdempotencyModule.
   */
  readonly leaseMs: number;
  /** How often each instance deletes records older than 24 hours (X5). */
  readonly sweepIntervalMs: number;
  /** Records deleted per statement by the sweep, so that no statement holds locks for long. */
  readonly sweepBatchSize: number;
  /** Whether the sweep starts with the server (tests call `IdempotencySweeper.sweep()` themselves). */
  readonly autoStart: boolean;

  constructor(options: Partial<IdempotencySettings> = {}) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 10 * 60_000;
    this.sweepBatchSize = options.sweepBatchSize ?? 1000;
    this.autoStart = options.autoStart ?? true;
  }
}
