import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { Metrics } from '../../shared/management/metrics';
import { OutboxStats, OutboxStore } from '../application/outbox-store';

/**
 * The mail outbox on the management port's /metrics (docs/operations.md, "Metrics"), as the webhook
 * deliveries have theirs: pending and failed messages and the age of the oldest pending one, read
 * from the database when scraped, so every instance reports the shared outbox. Absent where no
 * management port exists (a test context).
 */
@Injectable()
export class MailMetrics implements OnModuleInit {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: OutboxStore,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onModuleInit(): void {
    if (!this.metrics) return;
    const registers = [this.metrics.registry];
    // One read per scrape for the three gauges: the first collect reads, the others reuse it.
    let reading: Promise<OutboxStats | undefined> | undefined;
    const stats = () => {
      // A database that does not answer leaves the gauges as they were: /metrics must not fail with it.
      reading ??= this.uow
        .read(() => this.store.stats())
        .catch(() => undefined)
        .finally(() => setImmediate(() => (reading = undefined)));
      return reading;
    };
    const clock = this.clock;
    new Gauge({
      name: 'mail_outbox_pending',
      help: 'Invite emails waiting to be sent, in backoff included (outbox depth)',
      registers,
      async collect() {
        const current = await stats();
        if (current) this.set(current.pending);
      },
    });
    new Gauge({
      name: 'mail_outbox_failed',
      help: 'Invite emails given up after their last attempt (kept in the outbox)',
      registers,
      async collect() {
        const current = await stats();
        if (current) this.set(current.failed);
      },
    });
    new Gauge({
      name: 'mail_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest invite email not sent yet, 0 when none is pending',
      registers,
      async collect() {
        const current = await stats();
        if (!current) return;
        const oldest = current.oldestPendingAt;
        this.set(oldest ? Math.max(0, (clock.now().getTime() - oldest.getTime()) / 1000) : 0);
      },
    });
  }
}
