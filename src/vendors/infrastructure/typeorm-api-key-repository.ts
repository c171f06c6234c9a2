import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { IsNull } from 'typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
import { ApiKeyRepository } from '../application/api-key-repository';
import { ApiKey } from '../domain/api-key';
import { ApiKeyOrmEntity } from './api-key.orm-entity';
import { VendorQueries } from './vendors.queries';

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
    private readonly queries: VendorQueries,
  ) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(ApiKeyOrmEntity);
  }

  async insert(key: {
    vendorId: number;
    keyHash: string;
    keyPrefix: string;
    createdAt: Date;
  }): Promise<ApiKey> {
    const result = await this.rows.insert({ ...key, revokedAt: null, lastUsedAt: null });
    return {
      id: Number(result.identifiers[0]!.id),
      vendorId: key.vendorId,
      keyPrefix: key.keyPrefix,
      createdAt: key.createdAt,
      revokedAt: null,
      lastUsedAt: null,
    };
  }

  findActiveByHash(keyHash: string): Promise<ApiKey | null> {
    return this.queries.activeKeyByHash(keyHash);
  }

  async revokeByHash(keyHash: string, at: Date): Promise<boolean> {
    const { affected } = await this.rows.update({ keyHash, revokedAt: IsNull() }, { revokedAt: at });
    return (affected ?? 0) > 0;
  }

  async recordUse(keyId: number, at: Date, unlessAfter: Date): Promise<void> {
    // The condition is the database's: of two requests recording one minute, the second writes nothing.
    await this.rows
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: at })
      .where('id = :keyId', { keyId })
      .andWhere('(last_used_at IS NULL OR last_used_at < :unlessAfter)', {
        unlessAfter: this.dialect.dateTime(unlessAfter),
      })
      .execute();
  }

  async listForVendor(vendorId: number): Promise<ApiKey[]> {
    const rows = await this.rows.find({ where: { vendorId }, order: { createdAt: 'DESC', id: 'DESC' } });
    return rows.map((row) => ({
      id: Number(row.id),
      vendorId: row.vendorId,
      keyPrefix: row.keyPrefix,
      createdAt: row.createdAt,
      revokedAt: row.revokedAt,
      lastUsedAt: row.lastUsedAt,
    }));
  }
}
