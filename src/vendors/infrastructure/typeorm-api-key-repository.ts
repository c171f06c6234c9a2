import { Injectable } from '@nestjs/common';
import {
  SqlDatabase,
  dateFromRow,
  nullableDateFromRow,
} from '../../shared/infrastructure/database/sql-database';
import { ApiKeyRepository } from '../application/api-key-repository';
import { ApiKey } from '../domain/api-key';

interface ApiKeyRow {
  id: number;
  vendor_id: number;
  key_prefix: string;
  created_at: unknown;
  revoked_at: unknown;
  last_used_at: unknown;
}

const API_KEY_COLUMNS = 'id, vendor_id, key_prefix, created_at, revoked_at, last_used_at';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    vendorId: Number(row.vendor_id),
    keyPrefix: row.key_prefix,
    createdAt: dateFromRow(row.created_at),
    revokedAt: nullableDateFromRow(row.revoked_at),
    lastUsedAt: nullableDateFromRow(row.last_used_at),
  };
}

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async insert(key: {
    vendorId: number;
    keyHash: string;
    keyPrefix: string;
    createdAt: Date;
  }): Promise<ApiKey> {
    const { insertId } = await this.db.run(
      'INSERT INTO api_keys (vendor_id, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?)',
      [key.vendorId, key.keyHash, key.keyPrefix, key.createdAt],
    );
    return {
      id: insertId,
      vendorId: key.vendorId,
      keyPrefix: key.keyPrefix,
      createdAt: key.createdAt,
      revokedAt: null,
      lastUsedAt: null,
    };
  }

  async findActiveByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.db.one<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`,
      [keyHash],
      { lane: 'auth' }, // never waits behind a pool taken by other work (docs/operations.md)
    );
    return row ? toApiKey(row) : null;
  }

  async revokeByHash(keyHash: string, at: Date): Promise<boolean> {
    const { affected } = await this.db.run(
      'UPDATE api_keys SET revoked_at = ? WHERE key_hash = ? AND revoked_at IS NULL',
      [at, keyHash],
    );
    return affected > 0;
  }

  async recordUse(keyId: number, at: Date, unlessAfter: Date): Promise<void> {
    await this.db.run(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      [at, keyId, unlessAfter],
    );
  }

  async listForVendor(vendorId: number): Promise<ApiKey[]> {
    const rows = await this.db.all<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE vendor_id = ? ORDER BY created_at DESC, id DESC`,
      [vendorId],
    );
    return rows.map(toApiKey);
  }
}
