import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { ApiKey, ApiKeySecret } from '../domain/api-key';
import { ApiKeyRepository } from './api-key-repository';
import { AuthenticateApiKeyUseCase } from './authenticate-api-key.use-case';
import { RecordApiKeyUseUseCase } from './record-api-key-use.use-case';

class DirectUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  read<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}

class FixedClock extends Clock {
  constructor(private readonly at: Date) {
    super();
  }
  now(): Date {
    return this.at;
  }
}

/** An in-memory key store that counts its lookups. */
class InMemoryApiKeys extends ApiKeyRepository {
  readonly keys = new Map<string, ApiKey>();
  lookups = 0;
  touches = 0;

  async insert(key: {
    vendorId: number;
    keyHash: string;
    keyPrefix: string;
    createdAt: Date;
  }): Promise<ApiKey> {
    const stored: ApiKey = { id: this.keys.size + 1, ...key, revokedAt: null, lastUsedAt: null };
    this.keys.set(key.keyHash, stored);
    return stored;
  }
  async findActiveByHash(keyHash: string): Promise<ApiKey | null> {
    this.lookups += 1;
    const key = this.keys.get(keyHash);
    return key && !key.revokedAt ? key : null;
  }
  async revokeByHash(keyHash: string, at: Date): Promise<boolean> {
    const key = this.keys.get(keyHash);
    if (!key || key.revokedAt) return false;
    key.revokedAt = at;
    return true;
  }
  async recordUse(keyId: number, at: Date): Promise<void> {
    this.touches += 1;
    for (const key of this.keys.values()) if (key.id === keyId) key.lastUsedAt = at;
  }
  async listForVendor(vendorId: number): Promise<ApiKey[]> {
    return [...this.keys.values()].filter((key) => key.vendorId === vendorId).reverse();
  }
}

describe('AuthenticateApiKeyUseCase', () => {
  const now = new Date('2026-11-23T10:00:00.000Z');
  let keys: InMemoryApiKeys;
  let authenticate: AuthenticateApiKeyUseCase;
  let recordUse: RecordApiKeyUseUseCase;

  beforeEach(() => {
    keys = new InMemoryApiKeys();
    authenticate = new AuthenticateApiKeyUseCase(new DirectUnitOfWork(), keys);
    recordUse = new RecordApiKeyUseUseCase(new DirectUnitOfWork(), new FixedClock(now), keys);
  });

  async function issued(vendorId: number): Promise<string> {
    const secret = ApiKeySecret.generate();
    await keys.insert({ vendorId, keyHash: secret.hash, keyPrefix: secret.displayPrefix, createdAt: now });
    return secret.value;
  }

  it('looks a valid key up on every request, so that a revocation counts from the next one (D9)', async () => {
    const key = await issued(7);
    const prefix = key.slice(0, 10);
    expect(await authenticate.execute(key)).toMatchObject({ vendorId: 7, keyPrefix: prefix });
    expect(await authenticate.execute(key)).toMatchObject({ vendorId: 7, keyPrefix: prefix });
    expect(keys.lookups).toBe(2);
    await keys.revokeByHash(ApiKeySecret.hash(key), now);
    expect(await authenticate.execute(key)).toBeNull();
  });

  it('refuses a key it already found unknown or revoked from memory, without another lookup', async () => {
    const revoked = await issued(7);
    await keys.revokeByHash(ApiKeySecret.hash(revoked), now);
    for (const key of ['prm_wrong', revoked]) {
      expect(await authenticate.execute(key)).toBeNull();
      const lookups = keys.lookups;
      expect(await authenticate.execute(key)).toBeNull();
      expect(keys.lookups).toBe(lookups);
    }
  });

  it('still accepts a key issued after other keys were refused', async () => {
    expect(await authenticate.execute('prm_wrong')).toBeNull();
    const key = await issued(8);
    expect(await authenticate.execute(key)).toMatchObject({ vendorId: 8, keyPrefix: key.slice(0, 10) });
  });

  it('writes nothing itself: authenticating is a query', async () => {
    const key = await issued(7);
    await authenticate.execute(key);
    expect(keys.touches).toBe(0);
  });

  it('records lastUsedAt at most once a minute per key (RecordApiKeyUseUseCase)', async () => {
    const key = await issued(7);
    await recordUse.execute((await authenticate.execute(key))!);
    await recordUse.execute((await authenticate.execute(key))!);
    expect(keys.touches).toBe(1);
  });
});
