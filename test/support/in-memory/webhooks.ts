import { randomUUID } from 'node:crypto';
import { DestinationGuard } from '../../../src/webhooks/application/destination-guard';
import {
  DeliveryStatus,
  WebhookDeliveries,
  WebhookDelivery,
} from '../../../src/webhooks/application/webhook-deliveries';
import { WebhookEndpoint, WebhookEndpoints } from '../../../src/webhooks/application/webhook-endpoints';
import { isSubscribed, WebhookEventType } from '../../../src/webhooks/domain/webhook-event-type';
import type { WebhookEvent } from '../../../src/webhooks/application/webhook-event';
import { WebhookEvents } from '../../../src/webhooks/application/webhook-events';
import { Clock } from '../../../src/shared/domain/clock';
import { InMemoryUnitOfWork, Table } from './shared';

/** The webhooks module's ports in memory (src/webhooks/application/), over shared tables. */

interface EventRow {
  id: number;
  eventId: string;
  vendorId: number;
  type: WebhookEventType;
  /** the body sent, as the SQL adapter stores it: `{id, type, createdAt, data}` */
  payload: string;
  createdAt: Date;
}

interface DeliveryRow {
  id: number;
  endpointId: number;
  eventRowId: number;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastResponseStatus: number | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
}

export class InMemoryWebhookTables {
  readonly endpoints: Table<WebhookEndpoint>;
  readonly events: Table<EventRow>;
  readonly deliveries: Table<DeliveryRow>;

  constructor(uow: InMemoryUnitOfWork) {
    this.endpoints = uow.track(new Table<WebhookEndpoint>());
    this.events = uow.track(new Table<EventRow>());
    this.deliveries = uow.track(new Table<DeliveryRow>());
  }

  /** The events written for a vendor, oldest first, with their body parsed. */
  eventsOf(
    vendorId: number,
  ): { type: string; body: { id: string; type: string; data: Record<string, unknown> } }[] {
    return this.events
      .all((e) => e.vendorId === vendorId)
      .map((e) => ({
        type: e.type,
        body: JSON.parse(e.payload) as { id: string; type: string; data: Record<string, unknown> },
      }));
  }
}

export class InMemoryWebhookEndpoints extends WebhookEndpoints {
  constructor(private readonly tables: InMemoryWebhookTables) {
    super();
  }

  async add(endpoint: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint> {
    return this.tables.endpoints.insert(endpoint);
  }

  async listForVendor(vendorId: number): Promise<WebhookEndpoint[]> {
    return this.tables.endpoints.all((e) => e.vendorId === vendorId && e.disabledAt === null);
  }

  async findForVendor(id: number, vendorId: number): Promise<WebhookEndpoint | null> {
    const endpoint = this.tables.endpoints.get(id);
    return endpoint && endpoint.vendorId === vendorId && endpoint.disabledAt === null ? endpoint : null;
  }

  async disable(id: number, at: Date): Promise<void> {
    this.tables.endpoints.update(id, { disabledAt: at });
    for (const d of this.tables.deliveries.all((d) => d.endpointId === id && d.status === 'PENDING')) {
      this.tables.deliveries.update(d.id, {
        status: 'FAILED',
        nextAttemptAt: null,
        lastError: 'endpoint deleted',
      });
    }
  }
}

/**
 * X17: the event and one delivery per subscribed endpoint, in the caller's transaction only. The
 * `DomainEvents` port of the in-memory world is the module's own `WebhookDomainEvents` over this.
 */
export class InMemoryWebhookEvents extends WebhookEvents {
  constructor(
    private readonly uow: InMemoryUnitOfWork,
    private readonly tables: InMemoryWebhookTables,
    private readonly clock: Clock,
  ) {
    super();
  }

  async publish(vendorId: number, event: WebhookEvent): Promise<void> {
    if (!this.uow.inTransaction)
      throw new Error('WebhookEvents.publish must be called inside UnitOfWork.run');
    const subscribed = this.tables.endpoints.all(
      (e) => e.vendorId === vendorId && e.disabledAt === null && isSubscribed(e.events, event.type),
    );
    if (subscribed.length === 0) return;
    const now = this.clock.now();
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const payload = JSON.stringify({
      id: eventId,
      type: event.type,
      createdAt: now.toISOString(),
      // the data as the publishing module rendered it, as WebhookPayloads hands it to the SQL adapter
      data: event.data,
    });
    const row = this.tables.events.insert({ eventId, vendorId, type: event.type, payload, createdAt: now });
    for (const endpoint of subscribed) {
      this.tables.deliveries.insert({
        endpointId: endpoint.id,
        eventRowId: row.id,
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: now,
        lastResponseStatus: null,
        lastAttemptAt: null,
        lastError: null,
        createdAt: now,
      });
    }
  }
}

export class InMemoryWebhookDeliveries extends WebhookDeliveries {
  constructor(private readonly tables: InMemoryWebhookTables) {
    super();
  }

  private toDelivery(row: DeliveryRow): WebhookDelivery {
    const event = this.tables.events.get(row.eventRowId)!;
    return {
      id: row.id,
      eventId: event.eventId,
      type: event.type,
      status: row.status,
      attempts: row.attempts,
      lastResponseStatus: row.lastResponseStatus,
      lastAttemptAt: row.lastAttemptAt,
      nextAttemptAt: row.nextAttemptAt,
    };
  }

  async listForEndpoint(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
    return this.tables.deliveries
      .all((d) => d.endpointId === endpointId)
      .reverse()
      .slice(0, limit)
      .map((row) => this.toDelivery(row));
  }

  async replay(deliveryId: number, endpointId: number, at: Date): Promise<WebhookDelivery | null> {
    const original = this.tables.deliveries.get(deliveryId);
    if (!original || original.endpointId !== endpointId) return null;
    const row = this.tables.deliveries.insert({
      endpointId,
      eventRowId: original.eventRowId,
      status: 'PENDING',
      attempts: 0,
      nextAttemptAt: at,
      lastResponseStatus: null,
      lastAttemptAt: null,
      lastError: null,
      createdAt: at,
    });
    return this.toDelivery(row);
  }
}

/** The SSRF guard's DNS side (X16) as a table: urls whose host "resolves" to a refused address. */
export class StubDestinationGuard extends DestinationGuard {
  readonly refused = new Map<string, string>();
  checked: string[] = [];

  async problem(url: string): Promise<string | null> {
    this.checked.push(url);
    return this.refused.get(url) ?? null;
  }
}
