import { Injectable } from '@nestjs/common';
import { SqlDatabase } from '../../shared/infrastructure/database/sql-database';
import { VendorDirectory } from '../application/vendor-directory';

/** The vendors table as other modules may read it. */
@Injectable()
export class TypeOrmVendorDirectory extends VendorDirectory {
  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async exists(vendorId: number): Promise<boolean> {
    return (await this.db.one('SELECT 1 AS found FROM vendors WHERE id = ?', [vendorId])) !== undefined;
  }

  async nameOf(vendorId: number): Promise<string> {
    const row = await this.db.one<{ name: string }>('SELECT name FROM vendors WHERE id = ?', [vendorId]);
    if (!row) throw new Error(`vendor ${vendorId} not found`);
    return row.name;
  }
}
