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

/** Port: a vendor's registered endpoints (X16). Only endpoints not deleted are found or listed. */
export abstract class WebhookEndpoints {
  abstract add(endpoint: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint>;
  /** the vendor's endpoints, oldest first */
  abstract listForVendor(vendorId: number): Promise<WebhookEndpoint[]>;
  abstract findForVendor(id: number, vendorId: number): Promise<WebhookEndpoint | null>;
  /** Deletes the endpoint (X16): nothing more is delivered to it, its pending deliveries become FAILED. */
  abstract disable(id: number, at: Date): Promise<void>;
}
