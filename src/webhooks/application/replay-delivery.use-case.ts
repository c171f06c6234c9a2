import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { WebhookDeliveries, WebhookDelivery } from './webhook-deliveries';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class ReplayDeliveryUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpoints,
    private readonly deliveries: WebhookDeliveries,
    private readonly clock: Clock,
  ) {}

  execute(vendorId: number, webhookId: number, deliveryId: number): Promise<WebhookDelivery> {
    return this.uow.run(async () => {
      const endpoint = await this.endpoints.findForVendor(webhookId, vendorId);
      if (!endpoint) throw new NotFoundError('Webhook');
      const replayed = await this.deliveries.replay(deliveryId, endpoint.id, this.clock.now());
      if (!replayed) throw new NotFoundError('Delivery');
      return replayed;
    });
  }
}
