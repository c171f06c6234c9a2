import { Injectable } from '@nestjs/common';
import { DomainEvent, DomainEvents } from '../../shared/application/domain-events';
import { isWebhookEventType } from '../domain/webhook-event-type';
import { WebhookEvents } from './webhook-events';

/**
 * The `DomainEvents` port as webhooks (X17): every event published becomes a stored event and one
 * delivery per subscribed endpoint of its vendor, written by `WebhookEvents` in the publisher's
 * transaction. The modules that publish know only the port (src/shared/application), so this module
 * imports none of them.
 */
@Injectable()
export class WebhookDomainEvents extends DomainEvents {
  constructor(private readonly events: WebhookEvents) {
    super();
  }

  async publish(event: DomainEvent): Promise<void> {
    const { type, vendorId, data } = event;
    // Every event published today is a webhook type (docs/webhooks.md). One that is not, a misspelt
    // type say, is refused rather than dropped: the change it reports rolls back with it (X17).
    if (!isWebhookEventType(type)) throw new Error(`'${type}' is not a webhook event type (X17)`);
    await this.events.publish(vendorId, { type, data });
  }
}
