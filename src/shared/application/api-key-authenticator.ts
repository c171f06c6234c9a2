/** An accepted key: its vendor, and the display prefix stored with it (D9), which names the key in a lead's history (X12). */
export interface AuthenticatedKey {
  /** the key's own id, for recordUse */
  keyId: number;
  vendorId: number;
  keyPrefix: string;
  /** when the key was last recorded as used (to the minute), or null */
  lastUsedAt: Date | null;
}

/** Port the HTTP edge uses to turn an X-API-KEY value into the vendor it belongs to. */
export abstract class ApiKeyAuthenticator {
  /** A query: the key's vendor, or null for an unknown or revoked key. It writes nothing. */
  abstract authenticate(presentedKey: string): Promise<AuthenticatedKey | null>;

  /** A command: records that an accepted key was used now (its lastUsedAt, kept to the minute). */
  abstract recordUse(key: AuthenticatedKey): Promise<void>;
}
