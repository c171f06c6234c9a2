import { Injectable } from '@nestjs/common';
import { SqlDatabase, dateFromRow } from '../../shared/infrastructure/database/sql-database';
import { VendorRepository } from '../application/vendor-repository';
import { Vendor } from '../domain/vendor';

/** Vendors, API keys and lead options: hand-written SQL through SqlDatabase (one statement each). */
@Injectable()
export class TypeOrmVendorRepository extends VendorRepository {
  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async insert(vendor: Vendor): Promise<Vendor> {
    const { insertId } = await this.db.run('INSERT INTO vendors (name, created_at) VALUES (?, ?)', [
      vendor.name,
      vendor.createdAt,
    ]);
    vendor.identify(insertId);
    return vendor;
  }

  async exists(vendorId: number): Promise<boolean> {
    return (await this.db.one('SELECT 1 AS found FROM vendors WHERE id = ?', [vendorId])) !== undefined;
  }

  async list(): Promise<Vendor[]> {
    const rows = await this.db.all<{ id: number; name: string; created_at: unknown }>(
      'SELECT id, name, created_at FROM vendors ORDER BY id',
    );
    return rows.map((row) =>
      Vendor.restore({ id: Number(row.id), name: row.name, createdAt: dateFromRow(row.created_at) }),
    );
  }
}
