import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import { WebhookDeliveries, WebhookDelivery } from './webhook-deliveries';
import { WebhookEndpoints } from './webhook-endpoints';

/** X19: the latest 100 deliveries of an endpoint, newest first. */
export const DELIVERIES_LISTED = 100;

@Injectable()
export class ListDeliveriesUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpoints,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  execute(vendorId: number, webhookId: number): Promise<WebhookDelivery[]> {
    return this.uow.read(async () => {
      const endpoint = await this.endpoints.findForVendor(webhookId, vendorId);
      if (!endpoint) throw new NotFoundError('Webhook');
      return this.deliveries.listForEndpoint(endpoint.id, DELIVERIES_LISTED);
    });
  }
}
