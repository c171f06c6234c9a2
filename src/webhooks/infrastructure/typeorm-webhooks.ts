import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { IsNull } from 'typeorm';
import { Clock } from '../../shared/domain/clock';
import { SqlDatabase, nullableDateFromRow } from '../../shared/infrastructure/database/sql-database';
import {
  DeliveryStatus,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpoints,
  WebhookEvents,
} from '../application/ports';
import type { WebhookEvent } from '../application/webhook-event';
import { isSubscribed } from '../domain/webhook-event-type';
import { webhookData } from '../http/webhook-payload';
import {
  WebhookDeliveryOrmEntity,
  WebhookEndpointOrmEntity,
  WebhookEventOrmEntity,
} from './webhook.orm-entities';

function toEndpoint(row: WebhookEndpointOrmEntity): WebhookEndpoint {
  return {
    id: row.id,
    vendorId: row.vendorId,
    url: row.url,
    events: row.events.split(','),
    description: row.description,
    secret: row.secret,
    createdAt: row.createdAt,
    disabledAt: row.disabledAt,
  };
}

@Injectable()
export class TypeOrmWebhookEndpoints extends WebhookEndpoints {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(WebhookEndpointOrmEntity);
  }

  async add(endpoint: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint> {
    const result = await this.rows.insert({ ...endpoint, events: endpoint.events.join(',') });
    return { ...endpoint, id: Number((result.identifiers[0] as { id: number }).id) };
  }

  async listForVendor(vendorId: number): Promise<WebhookEndpoint[]> {
    const rows = await this.rows.find({ where: { vendorId, disabledAt: IsNull() }, order: { id: 'ASC' } });
    return rows.map(toEndpoint);
  }

  async findForVendor(id: number, vendorId: number): Promise<WebhookEndpoint | null> {
    const row = await this.rows.findOne({ where: { id, vendorId, disabledAt: IsNull() } });
    return row ? toEndpoint(row) : null;
  }

  async disable(id: number, at: Date): Promise<void> {
    await this.rows.update({ id }, { disabledAt: at });
    await this.txHost.tx
      .getRepository(WebhookDeliveryOrmEntity)
      .update(
        { endpointId: id, status: 'PENDING' },
        {
          status: 'FAILED',
          nextAttemptAt: null,
          lockedUntil: null,
          leaseToken: null,
          lastError: 'endpoint deleted',
        },
      );
  }
}

/** `evt_` + 32 hex digits: the event id sent as `webhook-id` (X18). */
function newEventId(): string {
  return `evt_${randomUUID().replace(/-/g, '')}`;
}

/** Writes the event and its deliveries through the transaction of the calling use case (X17). */
@Injectable()
export class TypeOrmWebhookEvents extends WebhookEvents {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {
    super();
  }

  async publish(vendorId: number, event: WebhookEvent): Promise<void> {
    const { type } = event;
    if (!this.db.inTransaction) {
      // Outside a transaction an event could be sent for a change that is later rolled back (X17).
      throw new Error('WebhookEvents.publish must be called inside UnitOfWork.run');
    }
    // Every lead change asks this: hand-written SQL, as on the other hot paths, rather than a
    // TypeORM query built and hydrated per request (docs/performance.md).
    const endpoints = await this.db.all<{ id: number | string; events: string }>(
      'SELECT id, events FROM webhook_endpoints WHERE vendor_id = ? AND disabled_at IS NULL ORDER BY id',
      [vendorId],
    );
    const subscribed = endpoints.filter((row) => isSubscribed(row.events.split(','), type));
    // No endpoint wants it: nothing is written, so vendors without webhooks pay one indexed read.
    if (subscribed.length === 0) return;
    const now = this.clock.now();
    const eventId = newEventId();
    const payload = JSON.stringify({
      id: eventId,
      type,
      createdAt: now.toISOString(),
      data: webhookData(event),
    });
    const inserted = await this.txHost.tx
      .getRepository(WebhookEventOrmEntity)
      .insert({ eventId, vendorId, type, payload, createdAt: now });
    const eventRowId = Number((inserted.identifiers[0] as { id: number }).id);
    await this.txHost.tx.getRepository(WebhookDeliveryOrmEntity).insert(
      subscribed.map((endpoint) => ({
        endpointId: Number(endpoint.id),
        eventRowId,
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: now,
        lockedUntil: null,
        leaseToken: null,
        lastResponseStatus: null,
        lastAttemptAt: null,
        lastError: null,
        createdAt: now,
      })),
    );
  }
}

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

const DELIVERY_COLUMNS = `d.id, e.event_id, e.type, d.status, d.attempts, d.last_response_status,
  d.last_attempt_at, d.next_attempt_at`;

@Injectable()
export class TypeOrmWebhookDeliveries extends WebhookDeliveries {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
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

  async listForEndpoint(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
    const rows: DeliveryRow[] = await this.txHost.tx.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.endpoint_id = ? ORDER BY d.id DESC LIMIT ?`,
      [endpointId, limit],
    );
    return rows.map((row) => this.toDelivery(row));
  }

  private async one(id: number): Promise<WebhookDelivery> {
    const rows: DeliveryRow[] = await this.txHost.tx.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.id = ?`,
      [id],
    );
    return this.toDelivery(rows[0]);
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
