import type { ApiKey } from '../domain/api-key';

export abstract class ApiKeyRepository {
  abstract insert(key: {
    vendorId: number;
    keyHash: string;
    keyPrefix: string;
    createdAt: Date;
  }): Promise<ApiKey>;
  /** The key with this hash unless it is revoked. */
  abstract findActiveByHash(keyHash: string): Promise<ApiKey | null>;
  /** Marks the key revoked; false when no active key has this hash. */
  abstract revokeByHash(keyHash: string, at: Date): Promise<boolean>;
  /** Sets lastUsedAt to `at` unless it was already set after `unlessAfter` (one write a minute at most). */
  abstract recordUse(keyId: number, at: Date, unlessAfter: Date): Promise<void>;
  /** The vendor's keys, revoked ones included, newest first (by createdAt, then id). */
  abstract listForVendor(vendorId: number): Promise<ApiKey[]>;
}
