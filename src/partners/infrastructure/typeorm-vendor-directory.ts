import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { VendorDirectory } from '../application/vendor-directory';

/**
 * Reads the vendor's name from the vendors table. The vendors module exposes no name lookup yet;
 * this one query is the only place partners reads a table it does not own.
 */
@Injectable()
export class TypeOrmVendorDirectory extends VendorDirectory {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async nameOf(vendorId: number): Promise<string> {
    const rows: { name: string }[] = await this.txHost.tx.query('SELECT name FROM vendors WHERE id = ?', [
      vendorId,
    ]);
    if (rows.length === 0) throw new Error(`vendor ${vendorId} not found`);
    return rows[0]!.name;
  }
}
