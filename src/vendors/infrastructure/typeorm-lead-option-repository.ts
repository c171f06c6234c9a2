import { Injectable } from '@nestjs/common';
import { SqlDatabase } from '../../shared/infrastructure/database/sql-database';
import { LeadOptionRepository } from '../application/lead-option-repository';
import { LeadOption, LeadOptionKind } from '../domain/lead-option';

interface LeadOptionRow {
  id: number;
  vendor_id: number;
  kind: string;
  label: string;
}

function toLeadOption(row: LeadOptionRow): LeadOption {
  return {
    id: Number(row.id),
    vendorId: Number(row.vendor_id),
    kind: row.kind as LeadOptionKind,
    label: row.label,
  };
}

@Injectable()
export class TypeOrmLeadOptionRepository extends LeadOptionRepository {
  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async insert(option: Omit<LeadOption, 'id'>, createdAt: Date): Promise<LeadOption> {
    const { insertId } = await this.db.run(
      'INSERT INTO lead_options (vendor_id, kind, label, created_at) VALUES (?, ?, ?, ?)',
      [option.vendorId, option.kind, option.label, createdAt],
    );
    return { id: insertId, ...option };
  }

  async listForVendor(vendorId: number): Promise<LeadOption[]> {
    const rows = await this.db.all<LeadOptionRow>(
      'SELECT id, vendor_id, kind, label FROM lead_options WHERE vendor_id = ? ORDER BY id',
      [vendorId],
    );
    return rows.map(toLeadOption);
  }

  async findForVendor(vendorId: number, kind: LeadOptionKind, ids: number[]): Promise<LeadOption[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all<LeadOptionRow>(
      `SELECT id, vendor_id, kind, label FROM lead_options
        WHERE vendor_id = ? AND kind = ? AND id IN (${ids.map(() => '?').join(', ')})`,
      [vendorId, kind, ...ids],
    );
    return rows.map(toLeadOption);
  }
}
