import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock } from '../../shared/domain/clock';
import { WebhookEvents } from '../application/webhook-events';
import type { WebhookEvent } from '../application/webhook-event';
import { WebhookPayloads } from '../application/webhook-payloads';
import { isSubscribed } from '../domain/webhook-event-type';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';
import { WebhookEventOrmEntity } from './webhook-event.orm-entity';
import { WebhookQueries } from './webhooks.queries';
import { isoDateTime } from '../../shared/domain/date-time';

/** `evt_` + 32 hex digits: the event id sent as `webhook-id` (X18). */
function newEventId(): string {
  return `evt_${randomUUID().replace(/-/g, '')}`;
}

/** Writes the event and its deliveries through the transaction of the calling use case (X17). */
@Injectable()
export class TypeOrmWebhookEvents extends WebhookEvents {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly queries: WebhookQueries,
    private readonly clock: Clock,
    private readonly payloads: WebhookPayloads,
  ) {
    super();
  }

  async publish(vendorId: number, event: WebhookEvent): Promise<void> {
    const { type } = event;
    if (!this.txHost.isTransactionActive()) {
      // Outside a transaction an event could be sent for a change that is later rolled back (X17).
      throw new Error('WebhookEvents.publish must be called inside UnitOfWork.run');
    }
    const endpoints = await this.queries.subscriptionsOfVendor(vendorId);
    const subscribed = endpoints.filter((endpoint) => isSubscribed(endpoint.events, type));
    // No endpoint wants it: nothing is written, so vendors without webhooks pay one indexed read.
    if (subscribed.length === 0) return;
    const now = this.clock.now();
    const eventId = newEventId();
    const payload = JSON.stringify({
      id: eventId,
      type,
      createdAt: isoDateTime(now),
      data: this.payloads.dataOf(event),
    });
    // repository.insert is one INSERT on both engines (no column has a database default, so nothing
    // is read back), and its identifiers carry the generated id, which TypeORM fills in only while
    // it updates the entity: not with the query builder's updateEntity(false).
    const inserted = await this.txHost.tx
      .getRepository(WebhookEventOrmEntity)
      .insert({ eventId, vendorId, type, payload, createdAt: now });
    const eventRowId = Number((inserted.identifiers[0] as { id: number }).id);
    await this.txHost.tx.getRepository(WebhookDeliveryOrmEntity).insert(
      subscribed.map((endpoint) => ({
        endpointId: endpoint.id,
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
