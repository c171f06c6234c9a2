import { Injectable } from '@nestjs/common';
import { PartnerAccess } from '../../partners';
import { Page } from '../../shared/application/page';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import { LeadListQuery } from '../domain/lead-list-query';
import { LeadRepository } from './lead-repository';
import { LeadView } from './lead-views';

/** docs/api.md 6: one page of a partner's leads, only the caller's vendor's (D27). */
@Injectable()
export class ListLeadsUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly partners: PartnerAccess,
    private readonly leads: LeadRepository,
  ) {}

  execute(query: LeadListQuery): Promise<Page<LeadView>> {
    return this.uow.read(async () => {
      if (!(await this.partners.isConnected(query.vendorId, query.partnerId)))
        throw new NotFoundError('partner');
      const { leads, totalItems } = await this.leads.listForPartner(query);
      return { data: leads, page: query.page, perPage: query.perPage, totalItems };
    });
  }
}
