/** Port the HTTP edge uses to turn an X-API-KEY value into the vendor it belongs to. */
export abstract class ApiKeyAuthenticator {
  /** null for an unknown or revoked key */
  abstract authenticate(presentedKey: string): Promise<{ vendorId: number } | null>;
}
