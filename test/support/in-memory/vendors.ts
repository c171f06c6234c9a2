import { ApiKeyRepository } from '../../../src/vendors/application/api-key-repository';
import { VendorRepository } from '../../../src/vendors/application/vendor-repository';
import { LeadOptionRepository, VendorDirectory } from '../../../src/vendors';
import { ApiKey } from '../../../src/vendors/domain/api-key';
import { LeadOption, LeadOptionKind } from '../../../src/vendors/domain/lead-option';
import { Vendor } from '../../../src/vendors/domain/vendor';
import { InMemoryUnitOfWork, Table } from './shared';

/** The vendors module's ports in memory (src/vendors/application/*-repository.ts, vendor-directory.ts). */

interface VendorRow {
  id: number;
  name: string;
  createdAt: Date;
}

export class InMemoryVendorRepository extends VendorRepository {
  readonly table: Table<VendorRow>;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<VendorRow>());
  }

  async insert(vendor: Vendor): Promise<Vendor> {
    const row = this.table.insert({ name: vendor.name, createdAt: vendor.createdAt });
    vendor.identify(row.id);
    return vendor;
  }

  async exists(vendorId: number): Promise<boolean> {
    return this.table.get(vendorId) !== undefined;
  }

  async list(): Promise<Vendor[]> {
    return this.table
      .all()
      .sort((a, b) => a.id - b.id)
      .map((row) => Vendor.restore({ ...row }));
  }

  /** A stored vendor, for arranging a test. */
  add(name = 'Acme', at = new Date('2030-01-01T00:00:00.000Z')): number {
    return this.table.insert({ name, createdAt: at }).id;
  }
}

interface ApiKeyRow extends ApiKey {
  keyHash: string;
}

export class InMemoryApiKeyRepository extends ApiKeyRepository {
  readonly table: Table<ApiKeyRow>;
  /** how many times findActiveByHash was asked (the authenticator's memory of refused keys saves lookups) */
  lookups = 0;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<ApiKeyRow>());
  }

  async insert(key: {
    vendorId: number;
    keyHash: string;
    keyPrefix: string;
    createdAt: Date;
  }): Promise<ApiKey> {
    // ux_api_keys_key_hash: a second key with the same hash is refused by the database
    if (this.table.find((row) => row.keyHash === key.keyHash)) throw new Error('duplicate key hash');
    const { keyHash: _hash, ...stored } = this.table.insert({ ...key, revokedAt: null, lastUsedAt: null });
    return stored;
  }

  async findActiveByHash(keyHash: string): Promise<ApiKey | null> {
    this.lookups += 1;
    const row = this.table.find((r) => r.keyHash === keyHash && r.revokedAt === null);
    if (!row) return null;
    const { keyHash: _hash, ...key } = row;
    return key;
  }

  async revokeByHash(keyHash: string, at: Date): Promise<boolean> {
    const row = this.table.find((r) => r.keyHash === keyHash && r.revokedAt === null);
    return row ? this.table.update(row.id, { revokedAt: at }) : false;
  }

  async recordUse(keyId: number, at: Date, unlessAfter: Date): Promise<void> {
    const row = this.table.get(keyId);
    if (row && (row.lastUsedAt === null || row.lastUsedAt < unlessAfter)) {
      this.table.update(keyId, { lastUsedAt: at });
    }
  }

  async listForVendor(vendorId: number): Promise<ApiKey[]> {
    return this.table
      .all((row) => row.vendorId === vendorId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map(({ keyHash: _hash, ...key }) => key);
  }
}

interface LeadOptionRow extends LeadOption {
  createdAt: Date;
}

export class InMemoryLeadOptionRepository extends LeadOptionRepository {
  readonly table: Table<LeadOptionRow>;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<LeadOptionRow>());
  }

  async insert(option: Omit<LeadOption, 'id'>, createdAt: Date): Promise<LeadOption> {
    const { createdAt: _at, ...stored } = this.table.insert({ ...option, createdAt });
    return stored;
  }

  async listForVendor(vendorId: number): Promise<LeadOption[]> {
    return this.table.all((row) => row.vendorId === vendorId).map(({ createdAt: _at, ...option }) => option);
  }

  async findForVendor(vendorId: number, kind: LeadOptionKind, ids: number[]): Promise<LeadOption[]> {
    const wanted = new Set(ids);
    return (await this.listForVendor(vendorId)).filter((o) => o.kind === kind && wanted.has(o.id));
  }

  /** A stored option, for arranging a test. */
  add(vendorId: number, kind: LeadOptionKind, label = kind === 'source' ? 'Web' : 'Hot'): number {
    return this.table.insert({ vendorId, kind, label, createdAt: new Date(0) }).id;
  }
}

/** What other modules may ask about a vendor, over the same vendor table. */
export class InMemoryVendorDirectory extends VendorDirectory {
  constructor(private readonly vendors: InMemoryVendorRepository) {
    super();
  }

  async exists(vendorId: number): Promise<boolean> {
    return this.vendors.table.get(vendorId) !== undefined;
  }

  async nameOf(vendorId: number): Promise<string> {
    const row = this.vendors.table.get(vendorId);
    if (!row) throw new Error(`vendor ${vendorId} not found`);
    return row.name;
  }
}
