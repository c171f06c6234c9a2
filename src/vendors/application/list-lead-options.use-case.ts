import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import { LeadOption } from '../domain/lead-option';
import { LeadOptionRepository } from './lead-option-repository';
import { VendorRepository } from './vendor-repository';

@Injectable()
export class ListLeadOptionsUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly vendors: VendorRepository,
    private readonly options: LeadOptionRepository,
  ) {}

  execute(vendorId: number): Promise<{ data: Pick<LeadOption, 'id' | 'kind' | 'label'>[] }> {
    return this.uow.run(async () => {
      if (!(await this.vendors.exists(vendorId))) throw new NotFoundError('vendor');
      const options = await this.options.listForVendor(vendorId);
      return { data: options.map(({ id, kind, label }) => ({ id, kind, label })) };
    });
  }
}
