import { Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Operation } from '../../shared/http/operation';
import { Input, ValidInput } from '../../shared/http/request-input';
import { DeleteWebhookUseCase } from '../application/delete-webhook.use-case';
import { ListDeliveriesUseCase } from '../application/list-deliveries.use-case';
import { ListWebhooksUseCase } from '../application/list-webhooks.use-case';
import { RegisterWebhookUseCase } from '../application/register-webhook.use-case';
import { ReplayDeliveryUseCase } from '../application/replay-delivery.use-case';
import { DeliveryPath, RegisterWebhookBody, WebhookPath } from './webhook.dto';
import {
  RegisteredWebhookResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
  toDeliveryResponse,
  toRegisteredWebhookResponse,
  toWebhookResponse,
} from './webhook.response';

/** Outgoing webhooks: X16 (endpoints) and X19 (deliveries); docs/webhooks.md. */
@ApiTags('Webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly registerWebhook: RegisterWebhookUseCase,
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly listDeliveries: ListDeliveriesUseCase,
    private readonly replayDelivery: ReplayDeliveryUseCase,
  ) {}

  @Operation({
    id: 'registerWebhook',
    summary: 'Register a webhook endpoint',
    description:
      'Registers an endpoint that receives the vendor’s events (X16, X17) as signed POSTs (X18). `secret` is ' +
      'in this answer only. A `url` that is not http(s), or whose host is or resolves to a loopback, private or ' +
      'link-local address, is VALIDATION_FAILED naming `url` unless the service runs with ' +
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true; an unknown event name is VALIDATION_FAILED naming `events`.',
    data: RegisteredWebhookResponse,
  })
  @Post()
  async register(
    @CurrentVendor() vendorId: number,
    @ValidInput({ body: { type: RegisterWebhookBody } })
    input: Input<undefined, undefined, RegisterWebhookBody>,
  ): Promise<RegisteredWebhookResponse> {
    const endpoint = await this.registerWebhook.execute(vendorId, {
      url: input.body.url,
      events: input.body.events,
      description: input.body.description ?? null,
    });
    return toRegisteredWebhookResponse(endpoint);
  }

  @Operation({
    id: 'listWebhooks',
    summary: 'List the vendor’s webhook endpoints',
    description: 'Every endpoint of the caller’s vendor not deleted, oldest first, without secrets (X16).',
    data: [WebhookResponse],
  })
  @Get()
  async list(@CurrentVendor() vendorId: number): Promise<WebhookResponse[]> {
    return (await this.listWebhooks.execute(vendorId)).map(toWebhookResponse);
  }

  @Operation({
    id: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description:
      'Nothing more is delivered to it: its pending deliveries become FAILED (X16). Another vendor’s endpoint, ' +
      'or one deleted already, is 404.',
    data: null,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Delete(':webhookId')
  async remove(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: WebhookPath }) input: Input<WebhookPath>,
  ): Promise<null> {
    await this.deleteWebhook.execute(vendorId, input.params.webhookId);
    return null;
  }

  @Operation({
    id: 'listWebhookDeliveries',
    summary: 'List an endpoint’s deliveries',
    description: 'The latest 100 deliveries to the endpoint, newest first (X19).',
    data: [WebhookDeliveryResponse],
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Get(':webhookId/deliveries')
  async deliveries(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: WebhookPath }) input: Input<WebhookPath>,
  ): Promise<WebhookDeliveryResponse[]> {
    return (await this.listDeliveries.execute(vendorId, input.params.webhookId)).map(toDeliveryResponse);
  }

  @Operation({
    id: 'replayWebhookDelivery',
    summary: 'Send a delivery’s event again',
    description:
      'Queues the delivery’s event to the endpoint again, as a new PENDING delivery with the same event id ' +
      '(`webhook-id`), and answers with that delivery (X19).',
    data: WebhookDeliveryResponse,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Post(':webhookId/deliveries/:deliveryId/replay')
  async replay(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: DeliveryPath }) input: Input<DeliveryPath>,
  ): Promise<WebhookDeliveryResponse> {
    const { webhookId, deliveryId } = input.params;
    return toDeliveryResponse(await this.replayDelivery.execute(vendorId, webhookId, deliveryId));
  }
}
