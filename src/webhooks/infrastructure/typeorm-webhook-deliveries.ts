import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { WebhookDeliveries, WebhookDelivery } from '../application/webhook-deliveries';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';
import { WebhookQueries } from './webhooks.queries';

@Injectable()
export class TypeOrmWebhookDeliveries extends WebhookDeliveries {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly queries: WebhookQueries,
  ) {
    super();
  }

  listForEndpoint(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
    return this.queries.deliveriesOfEndpoint(endpointId, limit);
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
    return this.queries.delivery(Number((inserted.identifiers[0] as { id: number }).id));
  }
}
