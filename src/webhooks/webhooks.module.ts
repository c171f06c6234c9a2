import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DestinationGuard, WebhookDeliveries, WebhookEndpoints, WebhookEvents } from './application/ports';
import {
  DeleteWebhookUseCase,
  ListDeliveriesUseCase,
  ListWebhooksUseCase,
  RegisterWebhookUseCase,
  ReplayDeliveryUseCase,
} from './application/webhook.use-cases';
import { DeliveryQueue, WebhookSender } from './application/delivery-queue';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhookDispatcherSettings } from './application/webhook-dispatcher.settings';
import { FetchWebhookSender } from './infrastructure/fetch-webhook-sender';
import { TypeOrmDeliveryQueue } from './infrastructure/typeorm-delivery-queue';
import { WebhookMetrics } from './infrastructure/webhook-metrics';
import { WebhooksController } from './http/webhooks.controller';
import { DnsDestinationGuard } from './infrastructure/dns-destination-guard';
import {
  WebhookDeliveryOrmEntity,
  WebhookEndpointOrmEntity,
  WebhookEventOrmEntity,
} from './infrastructure/webhook.orm-entities';
import {
  TypeOrmWebhookDeliveries,
  TypeOrmWebhookEndpoints,
  TypeOrmWebhookEvents,
} from './infrastructure/typeorm-webhooks';

/**
 * Outgoing webhooks (X16-X19, docs/webhooks.md): endpoints, the WebhookEvents port use cases write
 * events to inside their transaction, and the delivery worker.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpointOrmEntity, WebhookEventOrmEntity, WebhookDeliveryOrmEntity]),
  ],
  controllers: [WebhooksController],
  providers: [
    { provide: WebhookEndpoints, useClass: TypeOrmWebhookEndpoints },
    { provide: WebhookEvents, useClass: TypeOrmWebhookEvents },
    { provide: WebhookDeliveries, useClass: TypeOrmWebhookDeliveries },
    { provide: DestinationGuard, useClass: DnsDestinationGuard },
    { provide: WebhookDispatcherSettings, useValue: new WebhookDispatcherSettings() },
    { provide: DeliveryQueue, useClass: TypeOrmDeliveryQueue },
    { provide: WebhookSender, useClass: FetchWebhookSender },
    WebhookDispatcher,
    WebhookMetrics,
    RegisterWebhookUseCase,
    ListWebhooksUseCase,
    DeleteWebhookUseCase,
    ListDeliveriesUseCase,
    ReplayDeliveryUseCase,
  ],
  exports: [WebhookEvents, WebhookDispatcher, DeliveryQueue],
})
export class WebhooksModule {}
