import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DestinationGuard } from './application/destination-guard';
import { WebhookDeliveries } from './application/webhook-deliveries';
import { WebhookEndpoints } from './application/webhook-endpoints';
import { WebhookEvents } from './application/webhook-events';
import { WebhookDomainEvents } from './application/webhook-domain-events';
import { WebhookPayloads } from './application/webhook-payloads';
import { DomainEvents } from '../shared/application/domain-events';
import { DeleteWebhookUseCase } from './application/delete-webhook.use-case';
import { ListDeliveriesUseCase } from './application/list-deliveries.use-case';
import { ListWebhooksUseCase } from './application/list-webhooks.use-case';
import { RegisterWebhookUseCase } from './application/register-webhook.use-case';
import { ReplayDeliveryUseCase } from './application/replay-delivery.use-case';
import { DeliveryQueue } from './application/delivery-queue';
import { WebhookSender } from './application/webhook-sender';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhookDispatcherSettings } from './application/webhook-dispatcher.settings';
import { HttpWebhookSender } from './infrastructure/http-webhook-sender';
import { TypeOrmDeliveryQueue } from './infrastructure/typeorm-delivery-queue';
import { WebhookMetrics } from './infrastructure/webhook-metrics';
import { WebhooksController } from './http/webhooks.controller';
import { DnsDestinationGuard } from './infrastructure/dns-destination-guard';
import { WebhookDeliveryOrmEntity } from './infrastructure/webhook-delivery.orm-entity';
import { WebhookEndpointOrmEntity } from './infrastructure/webhook-endpoint.orm-entity';
import { WebhookEventOrmEntity } from './infrastructure/webhook-event.orm-entity';
import { TypeOrmWebhookDeliveries } from './infrastructure/typeorm-webhook-deliveries';
import { TypeOrmWebhookEndpoints } from './infrastructure/typeorm-webhook-endpoints';
import { TypeOrmWebhookEvents } from './infrastructure/typeorm-webhook-events';
import { WebhookQueries } from './infrastructure/webhooks.queries';

/**
 * Outgoing webhooks (X16-X19, docs/webhooks.md): endpoints, the `DomainEvents` port (shared) that use
 * cases publish events to inside their transaction, stored by `WebhookEvents`, and the delivery worker.
 * A module that publishes imports this one for the binding only; its code names the shared port.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpointOrmEntity, WebhookEventOrmEntity, WebhookDeliveryOrmEntity]),
  ],
  controllers: [WebhooksController],
  providers: [
    WebhookQueries,
    { provide: WebhookEndpoints, useClass: TypeOrmWebhookEndpoints },
    { provide: WebhookEvents, useClass: TypeOrmWebhookEvents },
    { provide: DomainEvents, useClass: WebhookDomainEvents },
    WebhookPayloads,
    { provide: WebhookDeliveries, useClass: TypeOrmWebhookDeliveries },
    { provide: DestinationGuard, useClass: DnsDestinationGuard },
    { provide: WebhookDispatcherSettings, useValue: new WebhookDispatcherSettings() },
    { provide: DeliveryQueue, useClass: TypeOrmDeliveryQueue },
    { provide: WebhookSender, useClass: HttpWebhookSender },
    WebhookDispatcher,
    WebhookMetrics,
    RegisterWebhookUseCase,
    ListWebhooksUseCase,
    DeleteWebhookUseCase,
    ListDeliveriesUseCase,
    ReplayDeliveryUseCase,
  ],
  exports: [DomainEvents, WebhookDispatcher, DeliveryQueue],
})
export class WebhooksModule {}
