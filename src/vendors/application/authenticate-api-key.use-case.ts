import { Injectable } from '@nestjs/common';
import type { AuthenticatedKey } from '../../shared/application/api-key-authenticator';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { ApiKeySecret } from '../domain/api-key';
import { ApiKeyRepository } from './api-key-repository';

const REFUSED_KEYS_REMEMBERED = 10_000;
const ACCEPTED_KEYS_REMEMBERED = 10_000;

@Injectable()
export class AuthenticateApiKeyUseCase {
  /**
   * Hashes of presented keys that were unknown or revoked. Such a key can never become valid: keys
   * are 256 random bits made by the service (D9), and a revocation is final. So a client repeating
   * a wrong key is refused from memory, without a query. Bounded, oldest forgotten first.
   */
  private readonly refused = new Set<string>();
  /**
   * Keys found valid, with the store's commit version they were found under. A valid key is
   * trusted from memory only while that version is still the store's: any commit anywhere since
   * (a revocation among them, on any instance) means it is looked up again, which keeps D9 (a
   * revoked key is refused from the next request on). Where the store has no such version
   * (MySQL), a valid key is looked up on every request. Bounded, the key used longest ago
   * forgotten first.
   */
  private readonly accepted = new Map<string, { key: AuthenticatedKey; version: number }>();

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
    // Read before the lookup: a commit between the two makes the entry stale, never wrongly fresh.
    const version = this.uow.commitVersion();
    if (version !== null) {
      const known = this.accepted.get(hash);
      if (known?.version === version) {
        this.accepted.delete(hash); // re-inserted last: the key used longest ago is forgotten first
        this.accepted.set(hash, known);
        return known.key;
      }
    }
    const key = await this.uow.read(() => this.apiKeys.findActiveByHash(hash));
    if (!key) {
      this.accepted.delete(hash);
      makeRoom(this.refused, REFUSED_KEYS_REMEMBERED);
      this.refused.add(hash);
      return null;
    }
    const found = {
      keyId: key.id,
      vendorId: key.vendorId,
      keyPrefix: key.keyPrefix,
      lastUsedAt: key.lastUsedAt,
    };
    if (version !== null) {
      this.accepted.delete(hash);
      makeRoom(this.accepted, ACCEPTED_KEYS_REMEMBERED);
      this.accepted.set(hash, { key: found, version });
    }
    return found;
  }
}

/** Forgets the oldest entry (the first in insertion order) of a full set or map. */
function makeRoom(entries: Set<string> | Map<string, unknown>, bound: number): void {
  if (entries.size >= bound) entries.delete(entries.keys().next().value!);
}
