import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { LeadOption } from '../domain/lead-option';
import { LeadOptionRepository } from './lead-option-repository';

/** X11: the vendor's lead sources and statuses, ordered by id, for the API (the vendor is the caller's). */
@Injectable()
export class GetLeadOptionsUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly options: LeadOptionRepository,
  ) {}

  execute(vendorId: number): Promise<LeadOption[]> {
    return this.uow.read(() => this.options.listForVendor(vendorId));
  }
}
