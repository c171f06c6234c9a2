import { NotFoundError, ValidationError } from '../../../src/shared/domain/domain-error';
import { ApiKeySecret } from '../../../src/vendors/domain/api-key';
import { AuthenticateApiKeyUseCase } from '../../../src/vendors/application/authenticate-api-key.use-case';
import { CreateApiKeyUseCase } from '../../../src/vendors/application/create-api-key.use-case';
import { CreateLeadOptionUseCase } from '../../../src/vendors/application/create-lead-option.use-case';
import { CreateVendorUseCase } from '../../../src/vendors/application/create-vendor.use-case';
import { GetLeadOptionsUseCase } from '../../../src/vendors/application/get-lead-options.use-case';
import { ListApiKeysUseCase } from '../../../src/vendors/application/list-api-keys.use-case';
import { ListLeadOptionsUseCase } from '../../../src/vendors/application/list-lead-options.use-case';
import { ListVendorsUseCase } from '../../../src/vendors/application/list-vendors.use-case';
import { RecordApiKeyUseUseCase } from '../../../src/vendors/application/record-api-key-use.use-case';
import { RevokeApiKeyUseCase } from '../../../src/vendors/application/revoke-api-key.use-case';
import { inMemoryAdapters } from '../../support/in-memory';

function vendorsSetup() {
  const a = inMemoryAdapters();
  return {
    ...a,
    createVendor: new CreateVendorUseCase(a.uow, a.clock, a.vendors, a.apiKeys),
    createKey: new CreateApiKeyUseCase(a.uow, a.clock, a.vendors, a.apiKeys),
    revokeKey: new RevokeApiKeyUseCase(a.uow, a.clock, a.apiKeys),
    authenticate: new AuthenticateApiKeyUseCase(a.uow, a.apiKeys),
    recordUse: new RecordApiKeyUseUseCase(a.uow, a.clock, a.apiKeys),
    createOption: new CreateLeadOptionUseCase(a.uow, a.clock, a.vendors, a.leadOptions),
    getOptions: new GetLeadOptionsUseCase(a.uow, a.leadOptions),
    listOptions: new ListLeadOptionsUseCase(a.uow, a.vendors, a.leadOptions),
    listVendors: new ListVendorsUseCase(a.uow, a.vendors),
    listKeys: new ListApiKeysUseCase(a.uow, a.vendors, a.apiKeys),
  };
}

describe('CreateVendorUseCase and the API keys (D9)', () => {
  it('creates the vendor with a first key, shown once and stored only as its hash and display prefix', async () => {
    const t = vendorsSetup();
    const { vendorId, apiKey } = await t.createVendor.execute('Acme');
    expect(await t.vendors.exists(vendorId)).toBe(true);
    const [stored] = t.apiKeys.table.all();
    expect(stored).toMatchObject({
      vendorId,
      keyHash: ApiKeySecret.hash(apiKey),
      keyPrefix: apiKey.slice(0, 10),
    });
    expect(JSON.stringify(t.apiKeys.table.all())).not.toContain(apiKey);
    expect(await t.authenticate.execute(apiKey)).toEqual({
      keyId: stored!.id,
      vendorId,
      keyPrefix: apiKey.slice(0, 10),
      lastUsedAt: null,
    });
  });

  it('refuses a blank name and writes nothing', async () => {
    const t = vendorsSetup();
    await expect(t.createVendor.execute('  ')).rejects.toBeInstanceOf(ValidationError);
    expect([t.vendors.table.size, t.apiKeys.table.size]).toEqual([0, 0]);
  });

  it('issues several active keys per vendor, so a key can be rotated; unknown vendor is not found', async () => {
    const t = vendorsSetup();
    const { vendorId, apiKey: first } = await t.createVendor.execute('Acme');
    const { apiKey: second } = await t.createKey.execute(vendorId);
    expect(second).not.toBe(first);
    for (const key of [first, second]) expect(await t.authenticate.execute(key)).toMatchObject({ vendorId });
    await expect(t.createKey.execute(vendorId + 1)).rejects.toEqual(new NotFoundError('vendor'));
  });

  it('a revoked key is refused from the next request on; revoking it again is not found', async () => {
    const t = vendorsSetup();
    const { vendorId, apiKey } = await t.createVendor.execute('Acme');
    const { apiKey: other } = await t.createKey.execute(vendorId);
    expect(await t.revokeKey.execute(apiKey)).toEqual({ revoked: true });
    expect(await t.authenticate.execute(apiKey)).toBeNull();
    expect(await t.authenticate.execute(other)).toMatchObject({ vendorId });
    await expect(t.revokeKey.execute(apiKey)).rejects.toEqual(new NotFoundError('active API key'));
  });

  it('records lastUsedAt at most once a minute', async () => {
    const t = vendorsSetup();
    const { apiKey } = await t.createVendor.execute('Acme');
    // what the API-key hook does on every request: authenticate (a query), then record the use (a command)
    const request = async () => t.recordUse.execute((await t.authenticate.execute(apiKey))!);
    const first = t.clock.now();
    await request();
    t.clock.advance(59_999);
    await request();
    expect(t.apiKeys.table.all()[0]!.lastUsedAt).toEqual(first);
    // the adapter's condition is strict (last_used_at < now - 1 min): the first write after the minute
    const later = t.clock.advance(2);
    await request();
    expect(t.apiKeys.table.all()[0]!.lastUsedAt).toEqual(later);
  });
});

describe('ListVendorsUseCase and ListApiKeysUseCase (the CLI: vendors:list, api-keys:list)', () => {
  it('lists every vendor, oldest first, with its id, name and creation time, in no transaction', async () => {
    const t = vendorsSetup();
    expect(await t.listVendors.execute()).toEqual({ data: [] });
    const acme = await t.createVendor.execute('Acme');
    const acmeAt = t.clock.now();
    t.clock.advance(1000);
    const globex = await t.createVendor.execute('Globex');
    const committed = t.uow.committed;
    expect(await t.listVendors.execute()).toEqual({
      data: [
        { id: acme.vendorId, name: 'Acme', createdAt: acmeAt },
        { id: globex.vendorId, name: 'Globex', createdAt: t.clock.now() },
      ],
    });
    expect(t.uow.committed).toBe(committed);
  });

  it("lists a vendor's keys newest first, revoked ones included, with their prefix and never the secret or hash", async () => {
    const t = vendorsSetup();
    const { vendorId, apiKey: first } = await t.createVendor.execute('Acme');
    const firstAt = t.clock.now();
    await t.createVendor.execute('Other');
    const secondAt = t.clock.advance(1000);
    const { apiKey: second } = await t.createKey.execute(vendorId);
    const revokedAt = t.clock.advance(1000);
    await t.revokeKey.execute(first);
    const usedAt = t.clock.advance(1000);
    await t.recordUse.execute((await t.authenticate.execute(second))!);
    const [firstRow, , secondRow] = t.apiKeys.table.all();
    const listed = await t.listKeys.execute(vendorId);
    expect(listed).toEqual({
      data: [
        {
          id: secondRow!.id,
          name: null,
          prefix: second.slice(0, 10),
          scopes: null,
          createdAt: secondAt,
          expiresAt: null,
          lastUsedAt: usedAt,
          revokedAt: null,
        },
        {
          id: firstRow!.id,
          name: null,
          prefix: first.slice(0, 10),
          scopes: null,
          createdAt: firstAt,
          expiresAt: null,
          lastUsedAt: null,
          revokedAt,
        },
      ],
    });
    const text = JSON.stringify(listed);
    for (const secret of [first, second]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(ApiKeySecret.hash(secret));
    }
  });

  it('refuses the keys of an unknown vendor as not found', async () => {
    const t = vendorsSetup();
    await expect(t.listKeys.execute(1)).rejects.toEqual(new NotFoundError('vendor'));
  });
});

describe('AuthenticateApiKeyUseCase: a query (D9)', () => {
  it("answers the key's id, vendor, display prefix and lastUsedAt, and writes nothing", async () => {
    const t = vendorsSetup();
    const { vendorId, apiKey } = await t.createVendor.execute('Acme');
    const before = { keys: t.apiKeys.table.all(), committed: t.uow.committed };
    const key = await t.authenticate.execute(apiKey);
    expect(key).toEqual({
      keyId: before.keys[0]!.id,
      vendorId,
      keyPrefix: apiKey.slice(0, 10),
      lastUsedAt: null,
    });
    expect({ keys: t.apiKeys.table.all(), committed: t.uow.committed }).toEqual(before);
  });

  it('refuses an unknown key, and remembers it: asked again, it is refused without a lookup', async () => {
    const t = vendorsSetup();
    await t.createVendor.execute('Acme');
    expect(await t.authenticate.execute('prm_unknown')).toBeNull();
    const lookups = t.apiKeys.lookups;
    expect(await t.authenticate.execute('prm_unknown')).toBeNull();
    expect(t.apiKeys.lookups).toBe(lookups);
  });
});

describe('RecordApiKeyUseUseCase (lastUsedAt, to the minute)', () => {
  async function authenticated() {
    const t = vendorsSetup();
    const { apiKey } = await t.createVendor.execute('Acme');
    return { t, apiKey, key: (await t.authenticate.execute(apiKey))! };
  }

  it('writes lastUsedAt = now for a key never used, in one transaction', async () => {
    const { t, key } = await authenticated();
    const committed = t.uow.committed;
    const now = t.clock.advance(5_000);
    await t.recordUse.execute(key);
    expect(t.apiKeys.table.get(key.keyId)!.lastUsedAt).toEqual(now);
    expect(t.uow.committed).toBe(committed + 1);
  });

  it('opens no transaction when the key it was given was used less than a minute ago', async () => {
    const { t, apiKey, key } = await authenticated();
    const first = t.clock.now();
    await t.recordUse.execute(key);
    const used = (await t.authenticate.execute(apiKey))!;
    expect(used.lastUsedAt).toEqual(first);
    const committed = t.uow.committed;
    t.clock.advance(59_999);
    await t.recordUse.execute(used);
    expect(t.uow.committed).toBe(committed);
    expect(t.apiKeys.table.get(key.keyId)!.lastUsedAt).toEqual(first);
  });

  it('writes nothing when another request recorded the use within the minute (a stale key read)', async () => {
    const { t, key } = await authenticated();
    const first = t.clock.now();
    await t.recordUse.execute(key);
    // `key` still says never used: the use case asks the repository, whose condition keeps the first write
    t.clock.advance(30_000);
    await t.recordUse.execute(key);
    expect(t.apiKeys.table.get(key.keyId)!.lastUsedAt).toEqual(first);
  });

  it('records the use of a key of another vendor only on that key', async () => {
    const { t, key } = await authenticated();
    const { apiKey: otherKey } = await t.createVendor.execute('Other');
    const other = (await t.authenticate.execute(otherKey))!;
    await t.recordUse.execute(other);
    expect(t.apiKeys.table.get(key.keyId)!.lastUsedAt).toBeNull();
    expect(t.apiKeys.table.get(other.keyId)!.lastUsedAt).toEqual(t.clock.now());
  });
});

describe('lead options (D15, X11): CreateLeadOptionUseCase, GetLeadOptionsUseCase, ListLeadOptionsUseCase', () => {
  it("creates options for a vendor and lists only that vendor's, ordered by id", async () => {
    const t = vendorsSetup();
    const { vendorId } = await t.createVendor.execute('A');
    const { vendorId: other } = await t.createVendor.execute('B');
    const web = await t.createOption.execute(vendorId, 'source', 'Web');
    const hot = await t.createOption.execute(vendorId, 'status', 'Hot');
    await t.createOption.execute(other, 'source', 'Fair');
    expect(await t.getOptions.execute(vendorId)).toEqual([
      { id: web.id, vendorId, kind: 'source', label: 'Web' },
      { id: hot.id, vendorId, kind: 'status', label: 'Hot' },
    ]);
    expect(await t.listOptions.execute(vendorId)).toEqual({
      data: [
        { id: web.id, kind: 'source', label: 'Web' },
        { id: hot.id, kind: 'status', label: 'Hot' },
      ],
    });
  });

  it("GetLeadOptionsUseCase reads the caller's vendor's options in no transaction: none is an empty list (X11)", async () => {
    const t = vendorsSetup();
    const { vendorId } = await t.createVendor.execute('A');
    const committed = t.uow.committed;
    expect(await t.getOptions.execute(vendorId)).toEqual([]);
    expect(t.uow.committed).toBe(committed);
  });

  it('refuses an unknown kind or a blank label, and an unknown vendor', async () => {
    const t = vendorsSetup();
    const { vendorId } = await t.createVendor.execute('A');
    // the kind and label are checked before any transaction starts
    const create = (kind: string, label: string) =>
      Promise.resolve().then(() => t.createOption.execute(vendorId, kind, label));
    await expect(create('colour', 'Red')).rejects.toBeInstanceOf(ValidationError);
    await expect(create('source', ' ')).rejects.toBeInstanceOf(ValidationError);
    await expect(t.createOption.execute(vendorId + 1, 'source', 'Web')).rejects.toEqual(
      new NotFoundError('vendor'),
    );
    await expect(t.listOptions.execute(vendorId + 1)).rejects.toEqual(new NotFoundError('vendor'));
    expect(t.leadOptions.table.size).toBe(0);
  });
});
