import { hash, randomBytes } from 'node:crypto';

/**
 * A secret made by the service: 32 random bytes (256 bits), base64url, after an optional prefix;
 * shown once and stored only as its SHA-256 hash. A fast hash is right here: the secret has full
 * entropy, so there is nothing for a slow hash to protect. API keys (D9) and invitation links (X20)
 * are such secrets, each with a class of its own that names it.
 */
export class SecretToken {
  protected constructor(readonly value: string) {}

  protected static randomValue(prefix = ''): string {
    return prefix + randomBytes(32).toString('base64url');
  }

  static hash(presented: string): string {
    // one-shot hash: no Hash object per call (API keys are hashed on every request)
    return hash('sha256', presented, 'hex');
  }

  get hash(): string {
    return SecretToken.hash(this.value);
  }
}
