import type { WebhookEvent } from './webhook-event';

export interface WebhookEndpoint {
  id: number;
  vendorId: number;
  url: string;
  /** subscribed type names, or ['*'] */
  events: string[];
  description: string | null;
  /** `whsec_...`, kept as issued so deliveries can be signed (docs/webhooks.md) */
  secret: string;
  createdAt: Date;
  disabledAt: Date | null;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface WebhookDelivery {
  id: number;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  lastResponseStatus: number | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
}

/** Port: a vendor's registered endpoints (X16). Only endpoints not deleted are found or listed. */
export abstract class WebhookEndpoints {
  abstract add(endpoint: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint>;
  /** the vendor's endpoints, oldest first */
  abstract listForVendor(vendorId: number): Promise<WebhookEndpoint[]>;
  abstract findForVendor(id: number, vendorId: number): Promise<WebhookEndpoint | null>;
  /** Deletes the endpoint (X16): nothing more is delivered to it, its pending deliveries become FAILED. */
  abstract disable(id: number, at: Date): Promise<void>;
}

/**
 * Port for use cases (X17): records an event and one delivery per subscribed endpoint of the vendor,
 * in the caller's transaction (an outbox, like the mail's): call it inside `UnitOfWork.run`, after
 * the change it reports, and only when the change changed something.
 */
export abstract class WebhookEvents {
  abstract publish(vendorId: number, event: WebhookEvent): Promise<void>;
}

/** Port: where a url's host resolves to, for the SSRF guard (X16). */
export abstract class DestinationGuard {
  /** null when the url may be called, else the reason it may not */
  abstract problem(url: string): Promise<string | null>;
}

/** Port: the deliveries of an endpoint as the API shows them (X19). */
export abstract class WebhookDeliveries {
  /** the latest `limit` deliveries of the endpoint, newest first */
  abstract listForEndpoint(endpointId: number, limit: number): Promise<WebhookDelivery[]>;
  /** Queues the delivery's event to its endpoint again (same event id): a new PENDING delivery. */
  abstract replay(deliveryId: number, endpointId: number, at: Date): Promise<WebhookDelivery | null>;
}
