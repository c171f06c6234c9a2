import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { Metrics } from '../../shared/management/metrics';
import { registerQueueGauges } from '../../shared/management/queue-gauges';
import { OutboxStore } from '../application/outbox-store';

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
    registerQueueGauges(
      this.metrics.registry,
      this.clock,
      {
        pending: {
          name: 'mail_outbox_pending',
          help: 'Invite emails waiting to be sent, in backoff included (outbox depth)',
        },
        failed: {
          name: 'mail_outbox_failed',
          help: 'Invite emails given up after their last attempt (kept in the outbox)',
        },
        oldestPendingAgeSeconds: {
          name: 'mail_outbox_oldest_pending_age_seconds',
          help: 'Age of the oldest invite email not sent yet, 0 when none is pending',
        },
      },
      () => this.uow.read(() => this.store.stats()),
    );
  }
}
