import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { VendorRepository } from './vendor-repository';

export interface VendorListing {
  id: number;
  name: string;
  createdAt: Date;
}

/** The CLI's `vendors:list` (docs/configuration.md "Administration CLI"): every vendor, oldest first. */
@Injectable()
export class ListVendorsUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly vendors: VendorRepository,
  ) {}

  async execute(): Promise<{ data: VendorListing[] }> {
    const vendors = await this.uow.read(() => this.vendors.list());
    return { data: vendors.map((v) => ({ id: v.id!, name: v.name, createdAt: v.createdAt })) };
  }
}
