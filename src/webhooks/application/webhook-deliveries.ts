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

/** Port: the deliveries of an endpoint as the API shows them (X19). */
export abstract class WebhookDeliveries {
  /** the latest `limit` deliveries of the endpoint, newest first */
  abstract listForEndpoint(endpointId: number, limit: number): Promise<WebhookDelivery[]>;
  /** Queues the delivery's event to its endpoint again (same event id): a new PENDING delivery. */
  abstract replay(deliveryId: number, endpointId: number, at: Date): Promise<WebhookDelivery | null>;
}
