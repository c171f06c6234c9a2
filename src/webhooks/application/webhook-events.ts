import type { WebhookEvent } from './webhook-event';

/**
 * Port for use cases (X17): records an event and one delivery per subscribed endpoint of the vendor,
 * in the caller's transaction (an outbox, like the mail's): call it inside `UnitOfWork.run`, after
 * the change it reports, and only when the change changed something.
 */
export abstract class WebhookEvents {
  abstract publish(vendorId: number, event: WebhookEvent): Promise<void>;
}
