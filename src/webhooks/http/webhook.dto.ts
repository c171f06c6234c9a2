import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn } from 'class-validator';
import { PathId } from '../../shared/http/query-fields';
import { OptionalString, RequiredString, SHORT_TEXT } from '../../shared/http/validation';
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-type';

const EVENT_NAMES = [...WEBHOOK_EVENT_TYPES, ALL_EVENTS];

/** X16: 1 to 20 names of X17, or ["*"]; an unknown name is VALIDATION_FAILED naming `events`. */
function EventList(): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'is required' }),
    IsArray({ message: 'must be a list' }),
    ArrayMinSize(1, { message: 'must hold 1 to 20 event names' }),
    ArrayMaxSize(20, { message: 'must hold 1 to 20 event names' }),
    IsIn(EVENT_NAMES, { each: true, message: `must hold only ${EVENT_NAMES.join(', ')}` }),
    ApiProperty({
      type: 'string',
      isArray: true,
      enum: EVENT_NAMES,
      minItems: 1,
      maxItems: 20,
      required: true,
      description: 'the event types to receive (X17), or ["*"] for all',
      example: ['lead.approved', 'lead.rejected'],
    }),
  );
}

/** X16 */
@ApiSchema({ name: 'RegisterWebhookRequest' })
export class RegisterWebhookBody {
  @RequiredString(2048, {
    description:
      'http or https; a host in a loopback, private or link-local range, or resolving to one, is refused ' +
      'unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (docs/webhooks.md)',
    example: 'https://hooks.example.com/prm',
  })
  url!: string;
  @EventList() events!: string[];
  @OptionalString(SHORT_TEXT, { example: 'CRM sync' }) description?: string | null;
}

export class WebhookPath {
  @PathId('the webhook endpoint') webhookId!: number;
}

export class DeliveryPath {
  @PathId('the webhook endpoint') webhookId!: number;
  @PathId('the delivery') deliveryId!: number;
}
