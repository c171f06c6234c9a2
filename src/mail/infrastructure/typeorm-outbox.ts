import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock } from '../../shared/domain/clock';
import { MailMessage } from '../application/mail-message';
import { Outbox } from '../application/outbox';
import { OutboxOrmEntity } from './outbox.orm-entity';

/** Writes outbox rows through the transaction of the calling use case (D35). */
@Injectable()
export class TypeOrmOutbox extends Outbox {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
  ) {
    super();
  }

  async enqueue(message: MailMessage): Promise<void> {
    if (!this.txHost.isTransactionActive()) {
      // Outside a transaction the email could go out for a change that is later rolled back.
      throw new Error('Outbox.enqueue must be called inside UnitOfWork.run');
    }
    const now = this.clock.now();
    await this.txHost.tx.getRepository(OutboxOrmEntity).insert({
      recipient: message.to,
      subject: message.subject,
      textBody: message.text,
      htmlBody: message.html,
      status: 'PENDING',
      attempts: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      leaseToken: null,
      lastError: null,
      createdAt: now,
      sentAt: null,
      failedAt: null,
    });
  }
}
