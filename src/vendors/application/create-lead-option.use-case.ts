import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { validateLeadOption } from '../domain/lead-option';
import { LeadOptionRepository } from './lead-option-repository';
import { VendorRepository } from './vendor-repository';

@Injectable()
export class CreateLeadOptionUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly vendors: VendorRepository,
    private readonly options: LeadOptionRepository,
  ) {}

  execute(vendorId: number, kind: string, label: string): Promise<{ id: number }> {
    const valid = validateLeadOption(kind, label);
    return this.uow.run(async () => {
      if (!(await this.vendors.exists(vendorId))) throw new NotFoundError('vendor');
      const option = await this.options.insert({ vendorId, ...valid }, this.clock.now());
      return { id: option.id };
    });
  }
}
