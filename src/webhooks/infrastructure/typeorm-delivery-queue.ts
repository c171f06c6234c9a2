import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In } from 'typeorm';
import { DatabaseDialect, nullableDateFromRow } from '../../shared/infrastructure/database/database-dialect';
import { claimLeasedRows } from '../../shared/infrastructure/database/lease-claim';
import { AttemptOutcome, ClaimedDelivery, DeliveryQueue, QueueStats } from '../application/delivery-queue';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';
import { WebhookQueries } from './webhooks.queries';

const MAX_ERROR_LENGTH = 1000;

/** The delivery queue's SQL (X18): rows leased by claimLeasedRows, as the mail outbox's are. */
@Injectable()
export class TypeOrmDeliveryQueue extends DeliveryQueue {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
    private readonly queries: WebhookQueries,
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
    return this.queries.claimedDeliveries(leaseToken);
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
    // A conditional UPDATE whose count answers: the endpoint test and the write are one statement.
    const endpointDeleted = await this.rows
      .createQueryBuilder()
      .update(WebhookDeliveryOrmEntity)
      .set({
        status: 'FAILED',
        nextAttemptAt: null,
        lockedUntil: null,
        leaseToken: null,
        lastError: 'endpoint deleted',
      })
      .where({ id: delivery.id, leaseToken: delivery.leaseToken, status: 'PENDING' })
      .andWhere(
        `EXISTS (SELECT 1 FROM webhook_endpoints w
                  WHERE w.id = webhook_deliveries.endpoint_id AND w.disabled_at IS NOT NULL)`,
      )
      .execute();
    if ((endpointDeleted.affected ?? 0) > 0) return false;
    return this.rows.exists({
      where: { id: delivery.id, leaseToken: delivery.leaseToken, status: 'PENDING' },
    });
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

  async stats(): Promise<QueueStats> {
    const row: { pending: number | string; oldest: unknown } | undefined = await this.rows
      .createQueryBuilder('d')
      .select('COUNT(*)', 'pending')
      .addSelect('MIN(d.createdAt)', 'oldest')
      .where({ status: 'PENDING' })
      .getRawOne();
    return { pending: Number(row?.pending ?? 0), oldestPendingAt: nullableDateFromRow(row?.oldest) };
  }
}
