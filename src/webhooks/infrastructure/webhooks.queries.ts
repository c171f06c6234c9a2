import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { nullableDateFromRow } from '../../shared/infrastructure/database/database-dialect';
import type { ClaimedDelivery } from '../application/delivery-queue';
import type { DeliveryStatus, WebhookDelivery } from '../application/webhook-deliveries';

interface DeliveryRow {
  id: number | string;
  event_id: string;
  type: string;
  status: string;
  attempts: number | string;
  last_response_status: number | string | null;
  last_attempt_at: unknown;
  next_attempt_at: unknown;
}

interface ClaimedRow {
  id: number | string;
  attempts: number | string;
  url: string;
  secret: string;
  event_id: string;
  payload: string;
}

/** An endpoint's id and the event types it subscribes to (`*` for all). */
export interface Subscription {
  id: number;
  events: string[];
}

const DELIVERIES = `SELECT d.id, e.event_id, e.type, d.status, d.attempts, d.last_response_status,
  d.last_attempt_at, d.next_attempt_at FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;

/**
 * The webhooks module's hand-written reads, on the transaction of the caller (or, outside one, on
 * the DataSource, inside UnitOfWork.read): the subscriptions every published event asks for (X17,
 * on every lead change), and the joins of deliveries with their events and endpoints (the entities
 * declare no relations): the rows a delivery round claimed (X18) and the deliveries the API lists
 * (X19). The repository adapters delegate these reads here.
 */
@Injectable()
export class WebhookQueries {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /**
   * What every lead or partner change that publishes an event asks (X17): the ids and event types
   * of the vendor's endpoints, through ix_webhook_endpoints_vendor, in the order they were added.
   */
  async subscriptionsOfVendor(vendorId: number): Promise<Subscription[]> {
    const rows: { id: number | string; events: string }[] = await this.txHost.tx.query(
      'SELECT id, events FROM webhook_endpoints WHERE vendor_id = ? AND disabled_at IS NULL ORDER BY id',
      [vendorId],
    );
    return rows.map((row) => ({ id: Number(row.id), events: row.events.split(',') }));
  }

  /** The latest `limit` deliveries of the endpoint, newest first (X19). */
  async deliveriesOfEndpoint(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
    const rows: DeliveryRow[] = await this.txHost.tx.query(
      `${DELIVERIES} WHERE d.endpoint_id = ? ORDER BY d.id DESC LIMIT ?`,
      [endpointId, limit],
    );
    return rows.map(toDelivery);
  }

  async delivery(id: number): Promise<WebhookDelivery | null> {
    const rows: DeliveryRow[] = await this.txHost.tx.query(`${DELIVERIES} WHERE d.id = ?`, [id]);
    return rows.length === 0 ? null : toDelivery(rows[0]!);
  }

  /** The deliveries a round leased to `leaseToken`, with what sending each needs (X18). */
  async claimedDeliveries(leaseToken: string): Promise<ClaimedDelivery[]> {
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
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
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
