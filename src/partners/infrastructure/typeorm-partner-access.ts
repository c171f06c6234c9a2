import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { PartnerAccess } from '../application/partner-access';
import { VendorPartnerOrmEntity } from './vendor-partner.orm-entity';

@Injectable()
export class TypeOrmPartnerAccess extends PartnerAccess {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  /** D25: answered by the primary key of vendor_partners (vendor_id, partner_id). */
  isConnected(vendorId: number, partnerId: number): Promise<boolean> {
    return this.txHost.tx.getRepository(VendorPartnerOrmEntity).existsBy({ vendorId, partnerId });
  }
}
