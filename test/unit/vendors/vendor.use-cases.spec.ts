import { NotFoundError, ValidationError } from '../../../src/shared/domain/domain-error';
import { ApiKeySecret } from '../../../src/vendors/domain/api-key';
import {
  AuthenticateApiKeyUseCase,
  CreateApiKeyUseCase,
  CreateLeadOptionUseCase,
  CreateVendorUseCase,
  GetLeadOptionsUseCase,
  ListLeadOptionsUseCase,
  RevokeApiKeyUseCase,
} from '../../../src/vendors/application/vendor-use-cases';
import { inMemoryAdapters } from '../../support/in-memory';

function vendorsSetup() {
  const a = inMemoryAdapters();
  return {
    ...a,
    createVendor: new CreateVendorUseCase(a.uow, a.clock, a.vendors, a.apiKeys),
    createKey: new CreateApiKeyUseCase(a.uow, a.clock, a.vendors, a.apiKeys),
    revokeKey: new RevokeApiKeyUseCase(a.uow, a.clock, a.apiKeys),
    authenticate: new AuthenticateApiKeyUseCase(a.uow, a.clock, a.apiKeys),
    createOption: new CreateLeadOptionUseCase(a.uow, a.clock, a.vendors, a.leadOptions),
    getOptions: new GetLeadOptionsUseCase(a.uow, a.leadOptions),
    listOptions: new ListLeadOptionsUseCase(a.uow, a.vendors, a.leadOptions),
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
    expect(await t.authenticate.execute(apiKey)).toEqual({ vendorId, keyPrefix: apiKey.slice(0, 10) });
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
    const first = t.clock.now();
    await t.authenticate.execute(apiKey);
    t.clock.advance(59_999);
    await t.authenticate.execute(apiKey);
    expect(t.apiKeys.table.all()[0]!.lastUsedAt).toEqual(first);
    // the adapter's condition is strict (last_used_at < now - 1 min): the first write after the minute
    const later = t.clock.advance(2);
    await t.authenticate.execute(apiKey);
    expect(t.apiKeys.table.all()[0]!.lastUsedAt).toEqual(later);
  });
});

describe('lead options (D15, X11)', () => {
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
