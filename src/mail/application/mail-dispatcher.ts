import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { redactMessage } from '../../shared/logging.module';
import { MailDispatcherSettings } from './mail-dispatcher.settings';
import { MailSender } from './mail-sender';
import { ClaimedMail, OutboxStore } from './outbox-store';

export interface DispatchRound {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  released: number;
}

/**
 * Delivers the outbox (D35, D36) from inside the server process.
 *
 * A round claims a batch of due messages with a lease (one short transaction), sends them one by one
 * outside any transaction, and records each outcome in a transaction of its own. A message is marked
 * sent right after the mail server accepted it, so it is sent exactly once unless the process dies
 * between the hand-over and that write (then it goes again after the lease: at-least-once, never lost).
 * A failure is retried with exponential backoff; after maxAttempts it is marked failed and logged.
 *
 * Stopping (D41) finishes the message in hand, gives back the lease of the rest of the batch, and ends
 * the poll loop.
 */
@Injectable()
export class MailDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MailDispatcher.name);
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** rounds in progress (from the loop or a direct call): stop() waits for them */
  private readonly rounds = new Set<Promise<DispatchRound>>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: OutboxStore,
    private readonly sender: MailSender,
    private readonly clock: Clock,
    private readonly settings: MailDispatcherSettings,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.autoStart) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Starts the poll loop (idempotent). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.run();
  }

  /** Ends the poll loop after the message in hand; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    await Promise.allSettled([...this.rounds]);
  }

  /** One claim/send round; used by the poll loop, and by tests to drive delivery deterministically. */
  dispatchDue(): Promise<DispatchRound> {
    const round = this.runRound();
    this.rounds.add(round);
    const forget = () => this.rounds.delete(round);
    round.then(forget, forget);
    return round;
  }

  private async runRound(): Promise<DispatchRound> {
    const round: DispatchRound = { claimed: 0, sent: 0, retried: 0, failed: 0, released: 0 };
    if (this.stopping) return round;
    const leaseToken = randomUUID();
    const claimedAt = this.clock.now();
    const leaseUntil = new Date(claimedAt.getTime() + this.settings.leaseMs);
    const batch = await this.uow.run(() =>
      this.store.claimDue(claimedAt, this.settings.batchSize, leaseUntil, leaseToken),
    );
    round.claimed = batch.length;
    const unattempted: number[] = [];
    for (const mail of batch) {
      // A message is only started while at least half of the lease is left, so a slow mail server
      // cannot make the lease run out under a send in progress (another instance could take it over).
      const halfLeaseLeft = this.clock.now().getTime() < leaseUntil.getTime() - this.settings.leaseMs / 2;
      if (this.stopping || !halfLeaseLeft) {
        unattempted.push(mail.id);
        continue;
      }
      const outcome = await this.deliver(mail);
      round[outcome] += 1;
    }
    if (unattempted.length > 0) {
      await this.uow.run(() => this.store.release(unattempted, leaseToken));
      round.released = unattempted.length;
    }
    return round;
  }

  private async deliver(mail: ClaimedMail): Promise<'sent' | 'retried' | 'failed'> {
    const attempts = mail.attempts + 1;
    try {
      await this.sender.send({
        from: this.config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // Logged without the recipient, and with any address the mail server quoted taken out: the
      // outbox row (its id is logged) says who it was for.
      const logged = redactMessage(reason);
      const now = this.clock.now();
      if (attempts >= this.settings.maxAttempts) {
        await this.uow.run(() => this.store.markFailed(mail.id, attempts, now, reason));
        this.logger.error(`giving up on outbox message ${mail.id} after ${attempts} attempts: ${logged}`);
        return 'failed';
      }
      const delay = this.settings.backoffAfter(attempts);
      await this.uow.run(() =>
        this.store.markRetry(mail.id, attempts, new Date(now.getTime() + delay), reason),
      );
      this.logger.warn(
        `outbox message ${mail.id} attempt ${attempts} failed, retrying in ${delay} ms: ${logged}`,
      );
      return 'retried';
    }
    await this.uow.run(() => this.store.markSent(mail.id, this.clock.now()));
    return 'sent';
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let fullBatch = false;
      try {
        const round = await this.dispatchDue();
        fullBatch = round.claimed >= this.settings.batchSize;
      } catch (error) {
        this.logger.error(`outbox round failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      // A full batch suggests more is due: go on at once; otherwise wait (woken early by stop()).
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
