import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { Counter } from 'prom-client';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { Metrics } from '../../shared/management/metrics';
import { registerQueueGauges } from '../../shared/management/queue-gauges';
import { DeliveryQueue } from '../application/delivery-queue';
import { WebhookDispatcher } from '../application/webhook-dispatcher';

/**
 * Webhook delivery on the management port's /metrics (docs/webhooks.md): attempts by outcome, and,
 * read from the database when scraped (so every instance reports the shared queue), the pending
 * deliveries and the age of the oldest. Absent where no management port exists (a test context).
 */
@Injectable()
export class WebhookMetrics implements OnModuleInit {
  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly uow: UnitOfWork,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onModuleInit(): void {
    if (!this.metrics) return;
    const attempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered (2xx), retried (will be tried again), failed (given up), cancelled (not recorded: the endpoint was deleted before or during the attempt, or the lease on the row was lost), interrupted (cut short by a stop, to be sent again)',
      labelNames: ['outcome'] as const,
      registers: [this.metrics.registry],
    });
    for (const outcome of ['delivered', 'retried', 'failed', 'cancelled', 'interrupted'] as const)
      attempts.inc({ outcome }, 0);
    this.dispatcher.onOutcome((outcome) => attempts.inc({ outcome }));
    registerQueueGauges(
      this.metrics.registry,
      this.clock,
      {
        pending: {
          name: 'webhook_deliveries_pending',
          help: 'Webhook deliveries waiting for an attempt (queue depth)',
        },
        oldestPendingAgeSeconds: {
          name: 'webhook_oldest_pending_delivery_age_seconds',
          help: 'Age of the oldest pending webhook delivery, 0 when none is pending',
        },
      },
      () => this.uow.read(() => this.queue.stats()),
    );
  }
}
