/** An accepted key: its vendor, and the display prefix stored with it (D9), which names the key in a lead's history (X12). */
export interface AuthenticatedKey {
  vendorId: number;
  keyPrefix: string;
}

/** Port the HTTP edge uses to turn an X-API-KEY value into the vendor it belongs to. */
export abstract class ApiKeyAuthenticator {
  /** null for an unknown or revoked key */
  abstract authenticate(presentedKey: string): Promise<AuthenticatedKey | null>;
}
