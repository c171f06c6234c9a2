/**
 * The webhooks module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { WebhooksModule } from './webhooks.module';
export { webhooksSchema } from './infrastructure/webhooks.schema';
export { WebhookEvents } from './application/webhook-events';
export type { WebhookEvent } from './application/webhook-event';
export { WebhookPayloads } from './application/webhook-payloads';
