/** The event types of X17, in the order docs/webhooks.md lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'partner.invited',
  'partner.users_invited',
  'partner.reinvited',
  'lead.created',
  'lead.updated',
  'lead.approved',
  'lead.rejected',
  'lead.archived',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/** `["*"]` subscribes an endpoint to every type, present and future (X16). */
export const ALL_EVENTS = '*';

export function isSubscribed(events: readonly string[], type: WebhookEventType): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}
