import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AuthLane } from '../../shared/infrastructure/database/auth-lane';
import { dateFromRow, nullableDateFromRow } from '../../shared/infrastructure/database/database-dialect';
import { ApiKey } from '../domain/api-key';
import { LeadOption, LeadOptionKind } from '../domain/lead-option';

interface ApiKeyRow {
  id: number | string;
  vendor_id: number | string;
  key_prefix: string;
  created_at: unknown;
  revoked_at: unknown;
  last_used_at: unknown;
}

interface LeadOptionRow {
  id: number | string;
  vendor_id: number | string;
  kind: string;
  label: string;
}

/**
 * The vendors module's reads on the hot paths, as plain SQL: the API-key lookup that every request
 * makes, and the lead options that every lead written or listed checks or shows (X11).
 */
@Injectable()
export class VendorQueries {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly authLane: AuthLane,
  ) {}

  /**
   * The key with this hash unless it is revoked. Read through the auth lane (D8): on MySQL its own
   * small pool, so a wrong key is refused at once even while the main pool is taken.
   */
  async activeKeyByHash(keyHash: string): Promise<ApiKey | null> {
    const rows: ApiKeyRow[] = await this.authLane.dataSource.query(
      `SELECT id, vendor_id, key_prefix, created_at, revoked_at, last_used_at
         FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`,
      [keyHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: Number(row.id),
      vendorId: Number(row.vendor_id),
      keyPrefix: row.key_prefix,
      createdAt: dateFromRow(row.created_at),
      revokedAt: nullableDateFromRow(row.revoked_at),
      lastUsedAt: nullableDateFromRow(row.last_used_at),
    };
  }

  /** The vendor's lead options, by id. */
  async leadOptionsOf(vendorId: number): Promise<LeadOption[]> {
    const rows: LeadOptionRow[] = await this.txHost.tx.query(
      'SELECT id, vendor_id, kind, label FROM lead_options WHERE vendor_id = ? ORDER BY id',
      [vendorId],
    );
    return rows.map(toLeadOption);
  }

  /** The options among `ids` that belong to the vendor and are of this kind. */
  async leadOptionsAmong(vendorId: number, kind: LeadOptionKind, ids: number[]): Promise<LeadOption[]> {
    if (ids.length === 0) return [];
    const rows: LeadOptionRow[] = await this.txHost.tx.query(
      `SELECT id, vendor_id, kind, label FROM lead_options
        WHERE vendor_id = ? AND kind = ? AND id IN (${ids.map(() => '?').join(', ')})`,
      [vendorId, kind, ...ids],
    );
    return rows.map(toLeadOption);
  }
}

function toLeadOption(row: LeadOptionRow): LeadOption {
  return {
    id: Number(row.id),
    vendorId: Number(row.vendor_id),
    kind: row.kind as LeadOptionKind,
    label: row.label,
  };
}
