import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { LeasedQueueWorker, WorkerRound } from '../../shared/application/leased-queue-worker';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { signWebhook } from '../domain/signature';
import { ClaimedDelivery, DeliveryQueue } from './delivery-queue';
import { WebhookSender } from './webhook-sender';
import { DestinationGuard } from './destination-guard';
import { MAX_ATTEMPTS, WebhookDispatcherSettings, retryDelay } from './webhook-dispatcher.settings';

/** Counts of what rounds did, for the management port's metrics. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed' | 'cancelled' | 'interrupted';
export type WebhookRound = WorkerRound<DeliveryOutcome>;

/** One POST's result, or 'interrupted' when stopping the process cut it short (D41). */
type AttemptResult = { status: number | null; error: string | null } | 'interrupted';

/**
 * Delivers webhook events (X18) from inside the server process, on the poll loop of
 * LeasedQueueWorker like the MailDispatcher (D35, D41): a round leases a batch of due deliveries in
 * one short transaction (FOR UPDATE SKIP LOCKED on MySQL, so instances share the work and never
 * send one attempt twice at once), POSTs each outside any transaction, and records the outcome in a
 * transaction of its own. 2xx within the timeout is delivered; anything else is retried on the
 * schedule of webhook-dispatcher.settings.ts, and the 15th failure is final. At-least-once: a
 * process that dies after the POST and before the write sends it again after the lease; receivers
 * deduplicate by `webhook-id`.
 *
 * Deleting an endpoint (X16) stops its deliveries: the row is confirmed still PENDING under this
 * round's lease, and its endpoint live, just before the POST, and the outcome is written only while
 * that still holds. A delivery whose endpoint was deleted is `cancelled`: not sent when the DELETE
 * came first, and left FAILED "endpoint deleted" when it came during the POST (which cannot be
 * called back once it is on the wire). A row no longer PENDING under this lease (it ran out and
 * another instance took the row) is `cancelled` too: the other instance's outcome is the one kept.
 *
 * Stopping (D41) aborts an attempt in flight: its row is given back as it was (`interrupted`), and
 * the next instance to run sends it again at once, with the same `webhook-id`. An answer that came
 * back before the abort took hold is recorded as usual.
 */
@Injectable()
export class WebhookDispatcher extends LeasedQueueWorker<ClaimedDelivery, DeliveryOutcome> {
  protected readonly logger = new Logger(WebhookDispatcher.name);
  private readonly listeners: ((outcome: DeliveryOutcome) => void)[] = [];

  constructor(
    uow: UnitOfWork,
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly guard: DestinationGuard,
    clock: Clock,
    private readonly settings: WebhookDispatcherSettings,
    private readonly config: AppConfig,
  ) {
    super(uow, clock, settings, ['delivered', 'retried', 'failed', 'cancelled', 'interrupted'], 'webhook');
  }

  /** Called with each attempt's outcome (metrics). */
  onOutcome(listener: (outcome: DeliveryOutcome) => void): void {
    this.listeners.push(listener);
  }

  protected override afterAttempt(outcome: DeliveryOutcome): void {
    for (const listener of this.listeners) listener(outcome);
  }

  protected claim(
    now: Date,
    limit: number,
    leaseUntil: Date,
    leaseToken: string,
  ): Promise<ClaimedDelivery[]> {
    return this.queue.claimDue(now, limit, leaseUntil, leaseToken);
  }

  protected release(ids: number[], leaseToken: string): Promise<void> {
    return this.queue.release(ids, leaseToken);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<AttemptResult> {
    if (!this.config.webhooks.allowPrivateNetworks) {
      // X16 again at send time: the name may resolve elsewhere now than at registration
      const refused = await this.guard.problem(delivery.url);
      if (refused) return { status: null, error: `destination refused: ${refused}` };
    }
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(delivery.secret, delivery.eventId, timestamp, delivery.payload),
    };
    // this attempt's own stop signal: a later start() replaces the worker's once it has fired
    const stop = this.stopSignal;
    try {
      const status = await this.sender.post(
        delivery.url,
        headers,
        delivery.payload,
        this.settings.timeoutMs,
        stop,
      );
      return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` };
    } catch (error) {
      // only a send that threw while stopping was cut short by the stop; an answer that arrived
      // (even one arriving as the stop begins) is the receiver's verdict and is recorded
      if (stop.aborted) return 'interrupted';
      return { status: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  protected async handle(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    if (!(await this.uow.run(() => this.queue.confirm(delivery)))) return 'cancelled';
    const result = await this.attempt(delivery);
    if (result === 'interrupted') {
      // D41: stopping cut the attempt short (a receiver that does not answer would hold the exit up
      // to the timeout). Not the receiver's failure: the row is given back untouched, due at once.
      await this.uow.run(() => this.queue.release([delivery.id], delivery.leaseToken));
      return 'interrupted';
    }
    const { status, error } = result;
    const outcome = { attempts: delivery.attempts + 1, responseStatus: status, at: this.clock.now() };
    if (error === null) {
      const recorded = await this.uow.run(() => this.queue.markDelivered(delivery, outcome));
      return recorded ? 'delivered' : 'cancelled';
    }
    if (outcome.attempts >= MAX_ATTEMPTS) {
      const recorded = await this.uow.run(() => this.queue.markFailed(delivery, outcome, error));
      if (!recorded) return 'cancelled';
      this.logger.warn(
        `giving up on webhook delivery ${delivery.id} after ${outcome.attempts} attempts: ${error}`,
      );
      return 'failed';
    }
    const next = new Date(
      outcome.at.getTime() + retryDelay(this.config.webhooks.retryBaseMs, outcome.attempts),
    );
    const recorded = await this.uow.run(() => this.queue.markRetry(delivery, outcome, next, error));
    return recorded ? 'retried' : 'cancelled';
  }
}
