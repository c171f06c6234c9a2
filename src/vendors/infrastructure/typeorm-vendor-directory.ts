import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { VendorDirectory } from '../application/vendor-directory';
import { VendorOrmEntity } from './vendor.orm-entity';

/** The vendors table as other modules may read it. */
@Injectable()
export class TypeOrmVendorDirectory extends VendorDirectory {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(VendorOrmEntity);
  }

  exists(vendorId: number): Promise<boolean> {
    return this.rows.existsBy({ id: vendorId });
  }

  async nameOf(vendorId: number): Promise<string> {
    const row = await this.rows.findOne({ select: { id: true, name: true }, where: { id: vendorId } });
    if (!row) throw new Error(`vendor ${vendorId} not found`);
    return row.name;
  }
}
