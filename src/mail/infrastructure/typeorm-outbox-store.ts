import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource, In } from 'typeorm';
import { DatabaseEngine, dbDateTime, engineOf } from '../../shared/infrastructure/database/database-engine';
import { ClaimedMail, OutboxStore } from '../application/outbox-store';
import { OutboxOrmEntity } from './outbox.orm-entity';

const MAX_ERROR_LENGTH = 1000;

@Injectable()
export class TypeOrmOutboxStore extends OutboxStore {
  private readonly engine: DatabaseEngine;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    dataSource: DataSource,
  ) {
    super();
    this.engine = engineOf(dataSource);
  }

  private get rows() {
    return this.txHost.tx.getRepository(OutboxOrmEntity);
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedMail[]> {
    const at = dbDateTime(this.engine, now);
    const until = dbDateTime(this.engine, leaseUntil);
    const due = `status = 'PENDING' AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until <= ?)`;
    if (this.engine === 'mysql') {
      // Several instances may claim at once: SKIP LOCKED lets each take rows the others are not
      // taking, and the lease written here keeps them apart once this short transaction commits.
      const picked: { id: number | string }[] = await this.txHost.tx.query(
        `SELECT id FROM mail_outbox WHERE ${due} ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED`,
        [at, at, limit],
      );
      if (picked.length === 0) return [];
      await this.txHost.tx.query(
        `UPDATE mail_outbox SET locked_until = ?, lease_token = ? WHERE id IN (${picked.map(() => '?').join(', ')})`,
        [until, leaseToken, ...picked.map((row) => Number(row.id))],
      );
    } else {
      // One statement, so it is atomic even if another process shares the SQLite file.
      await this.txHost.tx.query(
        `UPDATE mail_outbox SET locked_until = ?, lease_token = ?
          WHERE id IN (SELECT id FROM mail_outbox WHERE ${due} ORDER BY next_attempt_at, id LIMIT ?)`,
        [until, leaseToken, at, at, limit],
      );
    }
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
}
