import { SecretToken } from '../../shared/domain/secret-token';

/** Recognisable prefix so a leaked key is easy to spot in logs and secret scanners. */
export const API_KEY_PREFIX = 'prm_';

/** D9: a key is a SecretToken with a recognisable prefix, shown once, stored only as its hash. */
export class ApiKeySecret extends SecretToken {
  static generate(): ApiKeySecret {
    return new ApiKeySecret(SecretToken.randomValue(API_KEY_PREFIX));
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
