import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { IsNull } from 'typeorm';
import { WebhookEndpoint, WebhookEndpoints } from '../application/webhook-endpoints';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';
import { WebhookEndpointOrmEntity } from './webhook-endpoint.orm-entity';

function toEndpoint(row: WebhookEndpointOrmEntity): WebhookEndpoint {
  return {
    id: Number(row.id),
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

  /** Only endpoints not deleted (X16), through ix_webhook_endpoints_vendor. */
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
    await this.txHost.tx.getRepository(WebhookDeliveryOrmEntity).update(
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
