import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Page } from '../../shared/application/page';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-errors';
import { ConcurrentWriteConflict } from '../application/concurrent-write-conflict';
import { PartnerLock, PartnerRepository } from '../application/partner-repository';
import { Partner, PartnerListQuery } from '../domain/partner';
import { PartnerMapper, toConnectionRow } from './partner.mapper';
import { PartnerOrmEntity } from './partner.orm-entity';
import { PartnerQueries } from './partners.queries';
import { VendorPartnerOrmEntity } from './vendor-partner.orm-entity';

/**
 * Writes and the lookup by id through TypeORM's repositories; the vendor's single-partner read and
 * listing are PartnerQueries' hand-written statements (docs/partners-indexes.md).
 */
@Injectable()
export class TypeOrmPartnerRepository extends PartnerRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
    private readonly queries: PartnerQueries,
  ) {
    super();
  }

  async insert(partner: Partner): Promise<Partner> {
    // The generated id is the only value TypeORM reads back: from the driver's insert id (or RETURNING).
    const result = await this.txHost.tx.getRepository(PartnerOrmEntity).insert(PartnerMapper.toRow(partner));
    partner.identify(Number(result.identifiers[0]!.id));
    return partner;
  }

  /**
   * `forUpdate` locks the row until the transaction ends on MySQL; SQLite's write transaction
   * already excludes every other writer, and it has no row locks.
   */
  async findById(partnerId: number, lock: PartnerLock = {}): Promise<Partner | null> {
    const row = await this.txHost.tx.getRepository(PartnerOrmEntity).findOne({
      where: { id: partnerId },
      lock: lock.forUpdate ? this.dialect.writeLock : undefined,
    });
    return row ? PartnerMapper.toDomain(row) : null;
  }

  findConnected(vendorId: number, partnerId: number, lock: PartnerLock = {}): Promise<Partner | null> {
    return this.queries.findConnectedPartner(vendorId, partnerId, lock.forUpdate === true);
  }

  async connect(vendorId: number, partner: Partner, at: Date): Promise<void> {
    try {
      await this.txHost.tx
        .getRepository(VendorPartnerOrmEntity)
        .insert(toConnectionRow(vendorId, partner, at));
    } catch (error) {
      // The primary key (vendor_id, partner_id) guards concurrent connects of one partner (D20).
      if (isUniqueViolation(error)) throw new ConcurrentWriteConflict();
      throw error;
    }
  }

  async recordInvitedAt(partnerId: number, at: Date): Promise<void> {
    await this.txHost.tx.getRepository(PartnerOrmEntity).update({ id: partnerId }, { invitedAt: at });
  }

  listForVendor(query: PartnerListQuery): Promise<Page<Partner>> {
    return this.queries.listPartnersOfVendor(query);
  }
}
