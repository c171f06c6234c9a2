import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { signWebhook } from '../domain/signature';
import { ClaimedDelivery, DeliveryQueue } from './delivery-queue';
import { WebhookSender } from './webhook-sender';
import { DestinationGuard } from './destination-guard';
import { MAX_ATTEMPTS, WebhookDispatcherSettings, retryDelay } from './webhook-dispatcher.settings';

export interface WebhookRound {
  claimed: number;
  delivered: number;
  retried: number;
  failed: number;
  released: number;
}

/** Counts of what rounds did, for the management port's metrics. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed';

/**
 * Delivers webhook events (X18) from inside the server process, like the MailDispatcher (D35, D41):
 * a round leases a batch of due deliveries in one short transaction (FOR UPDATE SKIP LOCKED on
 * MySQL, so instances share the work and never send one attempt twice at once), POSTs each outside
 * any transaction, and records the outcome in a transaction of its own. 2xx within the timeout is
 * delivered; anything else is retried on the schedule of webhook-dispatcher.settings.ts, and the
 * 15th failure is final. At-least-once: a process that dies after the POST and before the write
 * sends it again after the lease; receivers deduplicate by `webhook-id`.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly rounds = new Set<Promise<WebhookRound>>();
  private readonly listeners: ((outcome: DeliveryOutcome) => void)[] = [];

  constructor(
    private readonly uow: UnitOfWork,
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly guard: DestinationGuard,
    private readonly clock: Clock,
    private readonly settings: WebhookDispatcherSettings,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.autoStart) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Called with each attempt's outcome (metrics). */
  onOutcome(listener: (outcome: DeliveryOutcome) => void): void {
    this.listeners.push(listener);
  }

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    await Promise.allSettled([...this.rounds]);
  }

  /** One claim/send round; used by the poll loop, and by tests to drive delivery deterministically. */
  dispatchDue(): Promise<WebhookRound> {
    const round = this.runRound();
    this.rounds.add(round);
    const forget = () => this.rounds.delete(round);
    round.then(forget, forget);
    return round;
  }

  private async runRound(): Promise<WebhookRound> {
    const round: WebhookRound = { claimed: 0, delivered: 0, retried: 0, failed: 0, released: 0 };
    if (this.stopping) return round;
    const leaseToken = randomUUID();
    const claimedAt = this.clock.now();
    const leaseUntil = new Date(claimedAt.getTime() + this.settings.leaseMs);
    const batch = await this.uow.run(() =>
      this.queue.claimDue(claimedAt, this.settings.batchSize, leaseUntil, leaseToken),
    );
    round.claimed = batch.length;
    const unattempted: number[] = [];
    for (const delivery of batch) {
      // started only while half the lease is left, so the lease cannot run out under an attempt
      const halfLeaseLeft = this.clock.now().getTime() < leaseUntil.getTime() - this.settings.leaseMs / 2;
      if (this.stopping || !halfLeaseLeft) {
        unattempted.push(delivery.id);
        continue;
      }
      const outcome = await this.deliver(delivery);
      round[outcome] += 1;
      for (const listener of this.listeners) listener(outcome);
    }
    if (unattempted.length > 0) {
      await this.uow.run(() => this.queue.release(unattempted, leaseToken));
      round.released = unattempted.length;
    }
    return round;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<{ status: number | null; error: string | null }> {
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
    try {
      const status = await this.sender.post(delivery.url, headers, delivery.payload, this.settings.timeoutMs);
      return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` };
    } catch (error) {
      return { status: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    const { status, error } = await this.attempt(delivery);
    const outcome = { attempts: delivery.attempts + 1, responseStatus: status, at: this.clock.now() };
    if (error === null) {
      await this.uow.run(() => this.queue.markDelivered(delivery.id, outcome));
      return 'delivered';
    }
    if (outcome.attempts >= MAX_ATTEMPTS) {
      await this.uow.run(() => this.queue.markFailed(delivery.id, outcome, error));
      this.logger.warn(
        `giving up on webhook delivery ${delivery.id} after ${outcome.attempts} attempts: ${error}`,
      );
      return 'failed';
    }
    const next = new Date(
      outcome.at.getTime() + retryDelay(this.config.webhooks.retryBaseMs, outcome.attempts),
    );
    await this.uow.run(() => this.queue.markRetry(delivery.id, outcome, next, error));
    return 'retried';
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let fullBatch = false;
      try {
        const round = await this.dispatchDue();
        fullBatch = round.claimed >= this.settings.batchSize;
      } catch (error) {
        this.logger.error(`webhook round failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!fullBatch && !this.stopping) await this.pause(this.settings.pollIntervalMs);
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
