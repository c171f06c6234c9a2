import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { LeasedQueueWorker, WorkerRound } from '../../shared/application/leased-queue-worker';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { redactMessage } from '../../shared/logging.module';
import { MailDispatcherSettings } from './mail-dispatcher.settings';
import { MailSender } from './mail-sender';
import { ClaimedMail, OutboxStore } from './outbox-store';

type MailOutcome = 'sent' | 'retried' | 'failed';
export type DispatchRound = WorkerRound<MailOutcome>;

/**
 * Delivers the outbox (D35, D36) from inside the server process, on the poll loop of
 * LeasedQueueWorker: a round claims a batch of due messages with a lease, sends them one by one
 * outside any transaction, and records each outcome in a transaction of its own. A message is
 * marked sent right after the mail server accepted it, so it is sent exactly once unless the
 * process dies between the hand-over and that write (then it goes again after the lease:
 * at-least-once, never lost). A failure is retried with exponential backoff; after maxAttempts it
 * is marked failed and logged. Stopping (D41) finishes the message in hand and gives back the rest.
 */
@Injectable()
export class MailDispatcher extends LeasedQueueWorker<ClaimedMail, MailOutcome> {
  protected readonly logger = new Logger(MailDispatcher.name);

  constructor(
    uow: UnitOfWork,
    private readonly store: OutboxStore,
    private readonly sender: MailSender,
    clock: Clock,
    private readonly settings: MailDispatcherSettings,
    private readonly config: AppConfig,
  ) {
    super(uow, clock, settings, ['sent', 'retried', 'failed'], 'outbox');
  }

  protected claim(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedMail[]> {
    return this.store.claimDue(now, limit, leaseUntil, leaseToken);
  }

  protected release(ids: number[], leaseToken: string): Promise<void> {
    return this.store.release(ids, leaseToken);
  }

  protected async handle(mail: ClaimedMail): Promise<MailOutcome> {
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
}
