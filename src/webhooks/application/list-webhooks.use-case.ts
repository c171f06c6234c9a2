import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { WebhookEndpoint, WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class ListWebhooksUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpoints,
  ) {}

  execute(vendorId: number): Promise<WebhookEndpoint[]> {
    return this.uow.read(() => this.endpoints.listForVendor(vendorId));
  }
}
