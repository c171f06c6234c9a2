import type { WebhookEvent } from './webhook-event';

/**
 * Port: the `data` of an event (X18), the Partner, PartnerUser list or Lead exactly as the API
 * returns them, plus what the event adds (docs/webhooks.md). The builders belong to the partners
 * and leads modules, which publish events through this module: so the adapter is bound at the
 * composition root (`src/webhook-payloads.ts`), and this module depends on neither.
 */
export abstract class WebhookPayloads {
  abstract dataOf(event: WebhookEvent): Record<string, unknown>;
}
