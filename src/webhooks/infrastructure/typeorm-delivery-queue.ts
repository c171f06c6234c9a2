import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource, In } from 'typeorm';
import { DatabaseEngine, engineOf } from '../../shared/infrastructure/database/database-engine';
import { claimLeasedRows } from '../../shared/infrastructure/database/lease-claim';
import { SqlDatabase, nullableDateFromRow } from '../../shared/infrastructure/database/sql-database';
import { AttemptOutcome, ClaimedDelivery, DeliveryQueue, QueueStats } from '../application/delivery-queue';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';

const MAX_ERROR_LENGTH = 1000;

interface ClaimedRow {
  id: number | string;
  attempts: number | string;
  url: string;
  secret: string;
  event_id: string;
  payload: string;
}

/** The delivery queue's SQL (X18): rows leased by claimLeasedRows, as the mail outbox's are. */
@Injectable()
export class TypeOrmDeliveryQueue extends DeliveryQueue {
  private readonly engine: DatabaseEngine;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.engine = engineOf(dataSource);
  }

  private get rows() {
    return this.txHost.tx.getRepository(WebhookDeliveryOrmEntity);
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedDelivery[]> {
    await claimLeasedRows(this.txHost.tx, this.engine, 'webhook_deliveries', {
      now,
      limit,
      leaseUntil,
      leaseToken,
    });
    const rows: ClaimedRow[] = await this.txHost.tx.query(
      `SELECT d.id, d.attempts, w.url, w.secret, e.event_id, e.payload
         FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         JOIN webhook_events e ON e.id = d.event_id
        WHERE d.lease_token = ? AND d.status = 'PENDING'
        ORDER BY d.id`,
      [leaseToken],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      attempts: Number(row.attempts),
      url: row.url,
      secret: row.secret,
      eventId: row.event_id,
      payload: row.payload,
    }));
  }

  private attempted(outcome: AttemptOutcome) {
    return {
      attempts: outcome.attempts,
      lastResponseStatus: outcome.responseStatus,
      lastAttemptAt: outcome.at,
      lockedUntil: null,
      leaseToken: null,
    };
  }

  async markDelivered(id: number, outcome: AttemptOutcome): Promise<void> {
    await this.rows.update(
      { id },
      { ...this.attempted(outcome), status: 'DELIVERED', nextAttemptAt: null, lastError: null },
    );
  }

  async markRetry(id: number, outcome: AttemptOutcome, nextAttemptAt: Date, error: string): Promise<void> {
    await this.rows.update(
      { id },
      { ...this.attempted(outcome), nextAttemptAt, lastError: error.slice(0, MAX_ERROR_LENGTH) },
    );
  }

  async markFailed(id: number, outcome: AttemptOutcome, error: string): Promise<void> {
    await this.rows.update(
      { id },
      {
        ...this.attempted(outcome),
        status: 'FAILED',
        nextAttemptAt: null,
        lastError: error.slice(0, MAX_ERROR_LENGTH),
      },
    );
  }

  async release(ids: number[], leaseToken: string): Promise<void> {
    if (ids.length === 0) return;
    await this.rows.update({ id: In(ids), leaseToken }, { lockedUntil: null, leaseToken: null });
  }

  /** Through SqlDatabase: read outside a transaction, it counts only committed rows (rule 3). */
  async stats(): Promise<QueueStats> {
    const row = await this.db.one<{ pending: number | string; oldest: unknown }>(
      `SELECT COUNT(*) AS pending, MIN(created_at) AS oldest FROM webhook_deliveries WHERE status = 'PENDING'`,
    );
    return { pending: Number(row?.pending ?? 0), oldestPendingAt: nullableDateFromRow(row?.oldest) };
  }
}
