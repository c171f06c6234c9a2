import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  DateTimeField,
  EnumField,
  IdField,
  IntegerField,
  TextField,
} from '../../shared/http/response-fields';
import type { WebhookDelivery } from '../application/webhook-deliveries';
import type { WebhookEndpoint } from '../application/webhook-endpoints';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-type';
import { isoDateTime } from '../../shared/domain/date-time';

const EVENTS_DOC = {
  type: 'string',
  isArray: true,
  enum: [...WEBHOOK_EVENT_TYPES, ALL_EVENTS],
  required: true,
  example: ['lead.approved'],
} as const;

/** An endpoint as listed (X16): never its secret. */
@ApiSchema({ name: 'Webhook' })
export class WebhookResponse {
  @IdField() id!: number;
  @TextField({ example: 'https://hooks.example.com/prm' }) url!: string;
  @ApiProperty(EVENTS_DOC) events!: string[];
  @TextField({}, true) description!: string | null;
  @DateTimeField() createdAt!: string;
  @DateTimeField({}, true) disabledAt!: string | null;
}

/** The answer of the registration, the one place the secret is shown (X16). */
@ApiSchema({ name: 'RegisteredWebhook' })
export class RegisteredWebhookResponse extends WebhookResponse {
  @TextField({
    description: '`whsec_` + base64 of 24 random bytes; shown in this answer only (X16, X18)',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryResponse {
  @IdField() id!: number;
  @TextField({
    description: 'the event id, sent as `webhook-id`',
    example: 'evt_0f8e3c1b9a2d4e5f8a7b6c5d4e3f2a1b',
  })
  eventId!: string;
  @EnumField(WEBHOOK_EVENT_TYPES) type!: string;
  @EnumField(['PENDING', 'DELIVERED', 'FAILED']) status!: string;
  @IntegerField({ example: 1 }) attempts!: number;
  @IntegerField({ example: 200 }, true) lastResponseStatus!: number | null;
  @DateTimeField({}, true) lastAttemptAt!: string | null;
  @DateTimeField({}, true) nextAttemptAt!: string | null;
}

export function toWebhookResponse(endpoint: WebhookEndpoint): WebhookResponse {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    createdAt: isoDateTime(endpoint.createdAt),
    disabledAt: endpoint.disabledAt ? isoDateTime(endpoint.disabledAt) : null,
  };
}

export function toRegisteredWebhookResponse(endpoint: WebhookEndpoint): RegisteredWebhookResponse {
  return { ...toWebhookResponse(endpoint), secret: endpoint.secret };
}

export function toDeliveryResponse(delivery: WebhookDelivery): WebhookDeliveryResponse {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    type: delivery.type,
    status: delivery.status,
    attempts: delivery.attempts,
    lastResponseStatus: delivery.lastResponseStatus,
    lastAttemptAt: delivery.lastAttemptAt ? isoDateTime(delivery.lastAttemptAt) : null,
    nextAttemptAt: delivery.nextAttemptAt ? isoDateTime(delivery.nextAttemptAt) : null,
  };
}
