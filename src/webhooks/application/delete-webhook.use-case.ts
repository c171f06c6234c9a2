import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class DeleteWebhookUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpoints,
    private readonly clock: Clock,
  ) {}

  execute(vendorId: number, webhookId: number): Promise<void> {
    return this.uow.run(async () => {
      const endpoint = await this.endpoints.findForVendor(webhookId, vendorId);
      if (!endpoint) throw new NotFoundError('Webhook');
      await this.endpoints.disable(endpoint.id, this.clock.now());
    });
  }
}
