import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In } from 'typeorm';
import { DatabaseDialect, nullableDateFromRow } from '../../shared/infrastructure/database/database-dialect';
import { claimLeasedRows } from '../../shared/infrastructure/database/lease-claim';
import { ClaimedMail, OutboxStats, OutboxStore } from '../application/outbox-store';
import { OutboxOrmEntity } from './outbox.orm-entity';

const MAX_ERROR_LENGTH = 1000;

@Injectable()
export class TypeOrmOutboxStore extends OutboxStore {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
  ) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(OutboxOrmEntity);
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedMail[]> {
    await claimLeasedRows(this.txHost.tx, this.dialect, 'mail_outbox', {
      now,
      limit,
      leaseUntil,
      leaseToken,
    });
    const claimed = await this.rows.find({ where: { leaseToken, status: 'PENDING' }, order: { id: 'ASC' } });
    return claimed.map((row) => ({
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      text: row.textBody ?? '',
      html: row.htmlBody ?? '',
      attempts: row.attempts,
    }));
  }

  async markSent(id: number, at: Date): Promise<void> {
    await this.rows.update(
      { id },
      { status: 'SENT', sentAt: at, lockedUntil: null, leaseToken: null, textBody: null, htmlBody: null },
    );
  }

  async markRetry(id: number, attempts: number, nextAttemptAt: Date, error: string): Promise<void> {
    await this.rows.update(
      { id },
      {
        attempts,
        nextAttemptAt,
        lockedUntil: null,
        leaseToken: null,
        lastError: error.slice(0, MAX_ERROR_LENGTH),
      },
    );
  }

  async markFailed(id: number, attempts: number, at: Date, error: string): Promise<void> {
    await this.rows.update(
      { id },
      {
        status: 'FAILED',
        attempts,
        failedAt: at,
        lockedUntil: null,
        leaseToken: null,
        lastError: error.slice(0, MAX_ERROR_LENGTH),
        textBody: null,
        htmlBody: null,
      },
    );
  }

  async release(ids: number[], leaseToken: string): Promise<void> {
    if (ids.length === 0) return;
    await this.rows.update({ id: In(ids), leaseToken }, { lockedUntil: null, leaseToken: null });
  }

  async stats(): Promise<OutboxStats> {
    // Two statuses of ix_mail_outbox_due (status, next_attempt_at): SENT rows, which pile up, are
    // never read.
    const rows: { status: string; n: number | string; oldest: unknown }[] = await this.rows
      .createQueryBuilder('m')
      .select('m.status', 'status')
      .addSelect('COUNT(*)', 'n')
      .addSelect('MIN(m.created_at)', 'oldest')
      .where('m.status IN (:...statuses)', { statuses: ['PENDING', 'FAILED'] })
      .groupBy('m.status')
      .getRawMany();
    const of = (status: string) => rows.find((row) => row.status === status);
    return {
      pending: Number(of('PENDING')?.n ?? 0),
      failed: Number(of('FAILED')?.n ?? 0),
      oldestPendingAt: nullableDateFromRow(of('PENDING')?.oldest),
    };
  }
}
