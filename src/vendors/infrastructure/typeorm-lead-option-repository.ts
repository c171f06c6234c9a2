import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { LeadOptionRepository } from '../application/lead-option-repository';
import { LeadOption, LeadOptionKind } from '../domain/lead-option';
import { LeadOptionOrmEntity } from './lead-option.orm-entity';
import { VendorQueries } from './vendors.queries';

@Injectable()
export class TypeOrmLeadOptionRepository extends LeadOptionRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly queries: VendorQueries,
  ) {
    super();
  }

  async insert(option: Omit<LeadOption, 'id'>, createdAt: Date): Promise<LeadOption> {
    const result = await this.txHost.tx.getRepository(LeadOptionOrmEntity).insert({ ...option, createdAt });
    return { id: Number(result.identifiers[0]!.id), ...option };
  }

  listForVendor(vendorId: number): Promise<LeadOption[]> {
    return this.queries.leadOptionsOf(vendorId);
  }

  findForVendor(vendorId: number, kind: LeadOptionKind, ids: number[]): Promise<LeadOption[]> {
    return this.queries.leadOptionsAmong(vendorId, kind, ids);
  }
}
