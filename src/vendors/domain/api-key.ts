import { hash, randomBytes } from 'node:crypto';

/** Recognisable prefix so a leaked key is easy to spot in logs and secret scanners. */
export const API_KEY_PREFIX = 'prm_';

/**
 * D9: a key is 32 random bytes (256 bits), shown once, stored only as its SHA-256 hash. A fast hash
 * is right here: the secret has full entropy, so there is nothing for a slow hash to protect.
 */
export class ApiKeySecret {
  private constructor(readonly value: string) {}

  static generate(): ApiKeySecret {
    return new ApiKeySecret(API_KEY_PREFIX + randomBytes(32).toString('base64url'));
  }

  static hash(presented: string): string {
    // one-shot hash: no Hash object per request (the hot path of every request)
    return hash('sha256', presented, 'hex');
  }

  get hash(): string {
    return ApiKeySecret.hash(this.value);
  }

  /** What is kept in clear to tell keys apart in an audit (prefix + 6 characters). */
  get displayPrefix(): string {
    return this.value.slice(0, API_KEY_PREFIX.length + 6);
  }
}

export interface ApiKey {
  id: number;
  vendorId: number;
  keyPrefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}
