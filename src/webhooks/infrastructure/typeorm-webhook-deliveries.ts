import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { SqlDatabase, nullableDateFromRow } from '../../shared/infrastructure/database/sql-database';
import { DeliveryStatus, WebhookDeliveries, WebhookDelivery } from '../application/webhook-deliveries';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';

interface DeliveryRow {
  id: number | string;
  event_id: string;
  type: string;
  status: string;
  attempts: number | string;
  last_response_status: number | string | null;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string | null;
}

const SELECT_DELIVERIES = `SELECT d.id, e.event_id, e.type, d.status, d.attempts, d.last_response_status,
  d.last_attempt_at, d.next_attempt_at FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;
const SELECT_DELIVERY = `${SELECT_DELIVERIES} WHERE d.id = ?`;

@Injectable()
export class TypeOrmWebhookDeliveries extends WebhookDeliveries {
  private readonly listSql: string;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
  ) {
    super();
    this.listSql = `${SELECT_DELIVERIES} WHERE d.endpoint_id = ? ORDER BY d.id DESC ${db.limitOffset}`;
  }

  private toDelivery(row: DeliveryRow): WebhookDelivery {
    return {
      id: Number(row.id),
      eventId: row.event_id,
      type: row.type,
      status: row.status as DeliveryStatus,
      attempts: Number(row.attempts),
      lastResponseStatus: row.last_response_status === null ? null : Number(row.last_response_status),
      lastAttemptAt: nullableDateFromRow(row.last_attempt_at),
      nextAttemptAt: nullableDateFromRow(row.next_attempt_at),
    };
  }

  /** Reads go through SqlDatabase, so outside a transaction they see only committed rows (rule 3). */
  async listForEndpoint(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.db.all<DeliveryRow>(this.listSql, [endpointId, limit, 0]);
    return rows.map((row) => this.toDelivery(row));
  }

  private async one(id: number): Promise<WebhookDelivery> {
    const row = await this.db.one<DeliveryRow>(SELECT_DELIVERY, [id]);
    return this.toDelivery(row!);
  }

  async replay(deliveryId: number, endpointId: number, at: Date): Promise<WebhookDelivery | null> {
    const repo = this.txHost.tx.getRepository(WebhookDeliveryOrmEntity);
    const original = await repo.findOne({ where: { id: deliveryId, endpointId } });
    if (!original) return null;
    const inserted = await repo.insert({
      endpointId,
      eventRowId: original.eventRowId,
      status: 'PENDING',
      attempts: 0,
      nextAttemptAt: at,
      lockedUntil: null,
      leaseToken: null,
      lastResponseStatus: null,
      lastAttemptAt: null,
      lastError: null,
      createdAt: at,
    });
    return this.one(Number((inserted.identifiers[0] as { id: number }).id));
  }
}
