import { Injectable } from '@nestjs/common';
import type { AuthenticatedKey } from '../../shared/application/api-key-authenticator';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { ApiKeySecret } from '../domain/api-key';
import { ApiKeyRepository } from './api-key-repository';

const LAST_USED_RESOLUTION_MS = 60_000;

const REFUSED_KEYS_REMEMBERED = 10_000;

@Injectable()
export class AuthenticateApiKeyUseCase {
  /**
   * Hashes of presented keys that were unknown or revoked. Such a key can never become valid: keys
   * are 256 random bits made by the service (D9), and a revocation is final. So a client repeating
   * a wrong key is refused from memory, without a query; a valid key is looked up on every request,
   * which is what makes a revocation effective from the next request on, on every instance.
   * Bounded, oldest forgotten first.
   */
  private readonly refused = new Set<string>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  /** The vendor the key belongs to and the key's display prefix, or null for an unknown or revoked key. */
  async execute(presented: string): Promise<AuthenticatedKey | null> {
    const hash = ApiKeySecret.hash(presented);
    if (this.refused.has(hash)) return null;
    const key = await this.uow.read(() => this.apiKeys.findActiveByHash(hash));
    if (!key) {
      this.remember(hash);
      return null;
    }
    const now = this.clock.now();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      // lastUsedAt is kept to the minute: one small write a minute per key, not one per request.
      await this.uow.run(() =>
        this.apiKeys.touch(key.id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
      );
    }
    return { vendorId: key.vendorId, keyPrefix: key.keyPrefix };
  }

  private remember(hash: string): void {
    if (this.refused.size >= REFUSED_KEYS_REMEMBERED) {
      this.refused.delete(this.refused.values().next().value!);
    }
    this.refused.add(hash);
  }
}
