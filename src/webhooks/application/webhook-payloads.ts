import { Injectable } from '@nestjs/common';
import type { WebhookEvent } from './webhook-event';

/**
 * The `data` of the body sent (X18): the event's own, as the publishing module rendered it with the
 * functions of its API's answers (docs/webhooks.md). Nothing is added nor rebuilt here, so the body is
 * what the module wrote; a class of its own because the event store (`WebhookEvents`' adapters) asks
 * it for the data.
 */
@Injectable()
export class WebhookPayloads {
  dataOf(event: WebhookEvent): Record<string, unknown> {
    return event.data;
  }
}
