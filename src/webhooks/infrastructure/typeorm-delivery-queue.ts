import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In } from 'typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
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
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    private readonly dialect: DatabaseDialect,
  ) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(WebhookDeliveryOrmEntity);
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedDelivery[]> {
    await claimLeasedRows(this.txHost.tx, this.dialect, 'webhook_deliveries', {
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
      leaseToken,
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

  async confirm(delivery: ClaimedDelivery): Promise<boolean> {
    const endpointDeleted = await this.db.run(
      `UPDATE webhook_deliveries
          SET status = 'FAILED', next_attempt_at = NULL, locked_until = NULL, lease_token = NULL,
              last_error = 'endpoint deleted'
        WHERE id = ? AND lease_token = ? AND status = 'PENDING'
          AND EXISTS (SELECT 1 FROM webhook_endpoints w
                       WHERE w.id = webhook_deliveries.endpoint_id AND w.disabled_at IS NOT NULL)`,
      [delivery.id, delivery.leaseToken],
    );
    if (endpointDeleted.affected > 0) return false;
    const held = await this.db.one(
      `SELECT 1 AS held FROM webhook_deliveries WHERE id = ? AND lease_token = ? AND status = 'PENDING'`,
      [delivery.id, delivery.leaseToken],
    );
    return held !== undefined;
  }

  /** Writes an attempt's outcome only while the row is still PENDING under the delivery's lease. */
  private async record(
    delivery: ClaimedDelivery,
    changes: Partial<WebhookDeliveryOrmEntity>,
  ): Promise<boolean> {
    const result = await this.rows.update(
      { id: delivery.id, leaseToken: delivery.leaseToken, status: 'PENDING' },
      changes,
    );
    return (result.affected ?? 0) > 0;
  }

  markDelivered(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<boolean> {
    return this.record(delivery, {
      ...this.attempted(outcome),
      status: 'DELIVERED',
      nextAttemptAt: null,
      lastError: null,
    });
  }

  markRetry(
    delivery: ClaimedDelivery,
    outcome: AttemptOutcome,
    nextAttemptAt: Date,
    error: string,
  ): Promise<boolean> {
    return this.record(delivery, {
      ...this.attempted(outcome),
      nextAttemptAt,
      lastError: error.slice(0, MAX_ERROR_LENGTH),
    });
  }

  markFailed(delivery: ClaimedDelivery, outcome: AttemptOutcome, error: string): Promise<boolean> {
    return this.record(delivery, {
      ...this.attempted(outcome),
      status: 'FAILED',
      nextAttemptAt: null,
      lastError: error.slice(0, MAX_ERROR_LENGTH),
    });
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
