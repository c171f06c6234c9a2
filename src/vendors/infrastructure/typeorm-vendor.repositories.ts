import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { In, IsNull, LessThan } from 'typeorm';
import { ApiKeyRepository, LeadOptionRepository, VendorRepository } from '../application/ports';
import { ApiKey } from '../domain/api-key';
import { LeadOption, LeadOptionKind } from '../domain/lead-option';
import { Vendor } from '../domain/vendor';
import { ApiKeyOrmEntity, LeadOptionOrmEntity, VendorOrmEntity } from './vendor.orm-entities';

@Injectable()
export class TypeOrmVendorRepository extends VendorRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async insert(vendor: Vendor): Promise<Vendor> {
    const saved = await this.txHost.tx
      .getRepository(VendorOrmEntity)
      .save({ name: vendor.name, createdAt: vendor.createdAt });
    return Vendor.restore(saved);
  }

  async exists(vendorId: number): Promise<boolean> {
    return this.txHost.tx.getRepository(VendorOrmEntity).exists({ where: { id: vendorId } });
  }
}

function toApiKey(row: ApiKeyOrmEntity): ApiKey {
  return {
    id: row.id,
    vendorId: row.vendorId,
    keyPrefix: row.keyPrefix,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async insert(key: {
    vendorId: number;
    keyHash: string;
    keyPrefix: string;
    createdAt: Date;
  }): Promise<ApiKey> {
    const saved = await this.txHost.tx
      .getRepository(ApiKeyOrmEntity)
      .save({ ...key, revokedAt: null, lastUsedAt: null });
    return toApiKey(saved);
  }

  async findActiveByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.txHost.tx
      .getRepository(ApiKeyOrmEntity)
      .findOne({ where: { keyHash, revokedAt: IsNull() } });
    return row ? toApiKey(row) : null;
  }

  async revokeByHash(keyHash: string, at: Date): Promise<boolean> {
    const result = await this.txHost.tx
      .getRepository(ApiKeyOrmEntity)
      .update({ keyHash, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async touch(keyId: number, at: Date, unlessAfter: Date): Promise<void> {
    // one statement: never used, or last used before `unlessAfter`
    await this.txHost.tx.getRepository(ApiKeyOrmEntity).update(
      [
        { id: keyId, lastUsedAt: IsNull() },
        { id: keyId, lastUsedAt: LessThan(unlessAfter) },
      ],
      { lastUsedAt: at },
    );
  }
}

@Injectable()
export class TypeOrmLeadOptionRepository extends LeadOptionRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async insert(option: Omit<LeadOption, 'id'>, createdAt: Date): Promise<LeadOption> {
    const saved = await this.txHost.tx.getRepository(LeadOptionOrmEntity).save({ ...option, createdAt });
    return { id: saved.id, vendorId: saved.vendorId, kind: saved.kind as LeadOptionKind, label: saved.label };
  }

  async listForVendor(vendorId: number): Promise<LeadOption[]> {
    const rows = await this.txHost.tx
      .getRepository(LeadOptionOrmEntity)
      .find({ where: { vendorId }, order: { id: 'ASC' } });
    return rows.map((r) => ({
      id: r.id,
      vendorId: r.vendorId,
      kind: r.kind as LeadOptionKind,
      label: r.label,
    }));
  }

  async findForVendor(vendorId: number, kind: LeadOptionKind, ids: number[]): Promise<LeadOption[]> {
    if (ids.length === 0) return [];
    const rows = await this.txHost.tx
      .getRepository(LeadOptionOrmEntity)
      .find({ where: { vendorId, kind, id: In(ids) } });
    return rows.map((r) => ({
      id: r.id,
      vendorId: r.vendorId,
      kind: r.kind as LeadOptionKind,
      label: r.label,
    }));
  }
}
