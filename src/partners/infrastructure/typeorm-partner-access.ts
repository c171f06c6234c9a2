import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { PartnerAccess } from '../application/partner-access';

@Injectable()
export class TypeOrmPartnerAccess extends PartnerAccess {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async isConnected(vendorId: number, partnerId: number): Promise<boolean> {
    const rows: unknown[] = await this.txHost.tx.query(
      'SELECT 1 AS connected FROM vendor_partners WHERE vendor_id = ? AND partner_id = ?',
      [vendorId, partnerId],
    );
    return rows.length > 0;
  }
}
