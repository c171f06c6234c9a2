import { Injectable } from '@nestjs/common';
import { SqlDatabase } from '../../shared/infrastructure/database/sql-database';
import { PartnerAccess } from '../application/partner-access';

@Injectable()
export class TypeOrmPartnerAccess extends PartnerAccess {
  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async isConnected(vendorId: number, partnerId: number): Promise<boolean> {
    const row = await this.db.one(
      'SELECT 1 AS connected FROM vendor_partners WHERE vendor_id = ? AND partner_id = ?',
      [vendorId, partnerId],
    );
    return row !== undefined;
  }
}
