import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError, ValidationError } from '../../shared/domain/domain-error';
import { urlProblem } from '../domain/destination';
import { newWebhookSecret } from '../domain/signature';
import { ALL_EVENTS } from '../domain/webhook-event-type';
import {
  DestinationGuard,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpoints,
} from './ports';

export interface RegisterWebhookCommand {
  url: string;
  events: string[];
  description: string | null;
}

/** X16: registers an endpoint; the answer is the only place its secret is shown. */
@Injectable()
export class RegisterWebhookUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly endpoints: WebhookEndpoints,
    private readonly guard: DestinationGuard,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute(vendorId: number, command: RegisterWebhookCommand): Promise<WebhookEndpoint> {
    const problem = urlProblem(command.url);
    if (problem) throw ValidationError.of('url', problem);
    if (!this.config.webhooks.allowPrivateNetworks) {
      // resolved before the transaction: a DNS lookup may take seconds (X16 SSRF guard)
      const refused = await this.guard.problem(command.url);
      if (refused) throw ValidationError.of('url', refused);
    }
    // '*' alone or names; a repeated name is kept once, in the order given
    const events = command.events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(command.events)];
    return this.uow.run(() =>
      this.endpoints.add({
        vendorId,
        url: command.url,
        events,
        description: command.description,
        secret: newWebhookSecret(),
        createdAt: this.clock.now(),
        disabledAt: null,
      }),
    );
  }
}

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
