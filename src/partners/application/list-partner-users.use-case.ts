import { Injectable } from '@nestjs/common';
import { Page } from '../../shared/application/page';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import { PartnerUser, PartnerUserListQuery } from '../domain/partner-user';
import { PartnerAccess } from './partner-access';
import { PartnerUserRepository } from './partner-user-repository';

/** docs/api.md endpoint 4 (D24, D25, D40): every user of the partner, whichever vendor invited it. */
@Injectable()
export class ListPartnerUsersUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly access: PartnerAccess,
    private readonly users: PartnerUserRepository,
  ) {}

  execute(vendorId: number, query: PartnerUserListQuery): Promise<Page<PartnerUser>> {
    return this.uow.read(async () => {
      if (!(await this.access.isConnected(vendorId, query.partnerId))) throw new NotFoundError('partner');
      return this.users.listForPartner(query);
    });
  }
}
