import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { VendorRepository } from '../application/vendor-repository';
import { Vendor } from '../domain/vendor';
import { VendorOrmEntity } from './vendor.orm-entity';

@Injectable()
export class TypeOrmVendorRepository extends VendorRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(VendorOrmEntity);
  }

  async insert(vendor: Vendor): Promise<Vendor> {
    const result = await this.rows.insert({ name: vendor.name, createdAt: vendor.createdAt });
    vendor.identify(Number(result.identifiers[0]!.id));
    return vendor;
  }

  exists(vendorId: number): Promise<boolean> {
    return this.rows.existsBy({ id: vendorId });
  }

  async list(): Promise<Vendor[]> {
    const rows = await this.rows.find({ order: { id: 'ASC' } });
    return rows.map((row) =>
      Vendor.restore({ id: Number(row.id), name: row.name, createdAt: row.createdAt }),
    );
  }
}
