import { Injectable } from '@nestjs/common';
import { Page } from '../../shared/application/page';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Partner, PartnerListQuery } from '../domain/partner';
import { PartnerRepository } from './partner-repository';

/** X9: the partners connected to the caller's vendor (D20: a partner shared by two vendors is listed by both). */
@Injectable()
export class ListPartnersUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly partners: PartnerRepository,
  ) {}

  execute(query: PartnerListQuery): Promise<Page<Partner>> {
    return this.uow.read(() => this.partners.listForVendor(query));
  }
}
