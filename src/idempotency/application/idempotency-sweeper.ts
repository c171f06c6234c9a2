import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencySettings } from './idempotency.settings';

/**
 * X5: deletes records older than 24 hours, from inside the server, every `sweepIntervalMs`. Each
 * instance sweeps on its own: a DELETE of expired rows is safe to run twice or at once (two sweeps
 * delete each row once between them), and a request never depends on it, since an expired record
 * counts as absent (`decide`).
 */
@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly settings: IdempotencySettings,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.autoStart) this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Deletes every expired record, a batch per transaction; returns how many. */
  async sweep(): Promise<number> {
    const batch = this.settings.sweepBatchSize;
    let total = 0;
    for (;;) {
      const now = this.clock.now();
      const deleted = await this.uow.run(() => this.store.deleteExpired(now, batch));
      total += deleted;
      if (deleted < batch || this.stopped) return total;
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.sweep()
        .then((deleted) => {
          if (deleted > 0) this.logger.log(`deleted ${deleted} expired Idempotency-Key records`);
        })
        .catch((error: unknown) => {
          this.logger.error(
            `Idempotency-Key sweep failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        })
        .finally(() => this.schedule());
    }, this.settings.sweepIntervalMs);
    // the sweep never keeps a process alive on its own
    this.timer.unref();
  }
}
