import { Injectable } from '@nestjs/common';
import type { AuthenticatedKey } from '../../shared/application/api-key-authenticator';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { ApiKeySecret } from '../domain/api-key';
import { ApiKeyRepository } from './api-key-repository';

const REFUSED_KEYS_REMEMBERED = 10_000;

@Injectable()
export class AuthenticateApiKeyUseCase {
  /**
   * Hashes of presented keys that were unknown or revoked. Such a key can never become valid: keys
   * are 256 random bits made by the service (D9), and a revocation is final. So a client repeating
   * a wrong key is refused from memory, without a query. Bounded, oldest forgotten first.
   */
  private readonly refused = new Set<string>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  /**
   * The vendor the key belongs to and the key's display prefix, or null for an unknown or revoked
   * key. A query: recording the use is RecordApiKeyUseUseCase's.
   */
  async execute(presented: string): Promise<AuthenticatedKey | null> {
    const hash = ApiKeySecret.hash(presented);
    if (this.refused.has(hash)) return null;
    const key = await this.uow.read(() => this.apiKeys.findActiveByHash(hash));
    if (!key) {
      makeRoom(this.refused, REFUSED_KEYS_REMEMBERED);
      this.refused.add(hash);
      return null;
    }
    return {
      keyId: key.id,
      vendorId: key.vendorId,
      keyPrefix: key.keyPrefix,
      lastUsedAt: key.lastUsedAt,
    };
  }
}

/** Forgets the oldest entry (the first in insertion order) of a full set. */
function makeRoom(entries: Set<string>, bound: number): void {
  if (entries.size >= bound) entries.delete(entries.keys().next().value!);
}
