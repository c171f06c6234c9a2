import type { WebhookEventType } from '../domain/webhook-event-type';

/**
 * An event as this module stores and sends it (X17, X18): one of its types, and the `data` the
 * publishing module rendered (a `DomainEvent`'s, docs/webhooks.md lists each). This module reads
 * nothing in `data`: it knows no Lead or Partner, and imports neither module.
 */
export interface WebhookEvent {
  readonly type: WebhookEventType;
  readonly data: Record<string, unknown>;
}
