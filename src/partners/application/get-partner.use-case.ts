import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import { Partner } from '../domain/partner';
import { PartnerRepository } from './partner-repository';

/** X10: one partner connected to the caller's vendor; otherwise 404, whether it exists or not (D25). */
@Injectable()
export class GetPartnerUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly partners: PartnerRepository,
  ) {}

  execute(vendorId: number, partnerId: number): Promise<Partner> {
    return this.uow.read(async () => {
      const partner = await this.partners.findConnected(vendorId, partnerId);
      if (!partner) throw new NotFoundError('partner');
      return partner;
    });
  }
}
