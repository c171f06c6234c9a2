import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { FindOptionsWhere, In } from 'typeorm';
import { Page } from '../../shared/application/page';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-errors';
import { ConcurrentWriteConflict } from '../application/concurrent-write-conflict';
import { PartnerUserRepository } from '../application/partner-user-repository';
import { PartnerUser, PartnerUserListQuery } from '../domain/partner-user';
import { PartnerUserMapper } from './partner.mapper';
import { PartnerUserOrmEntity } from './partner-user.orm-entity';
import { PartnerQueries } from './partners.queries';

@Injectable()
export class TypeOrmPartnerUserRepository extends PartnerUserRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
    private readonly queries: PartnerQueries,
  ) {
    super();
  }

  private get users() {
    return this.txHost.tx.getRepository(PartnerUserOrmEntity);
  }

  private async findOne(
    where: FindOptionsWhere<PartnerUserOrmEntity>,
    lock?: { mode: 'pessimistic_write' },
  ): Promise<PartnerUser | null> {
    const row = await this.users.findOne({ where, lock });
    return row ? PartnerUserMapper.toDomain(row) : null;
  }

  findByEmail(emailNormalized: string): Promise<PartnerUser | null> {
    return this.findOne({ emailNormalized });
  }

  async takenEmails(emailsNormalized: string[]): Promise<Set<string>> {
    const distinct = [...new Set(emailsNormalized)];
    if (distinct.length === 0) return new Set();
    const rows = await this.users.find({
      select: { emailNormalized: true },
      where: { emailNormalized: In(distinct) },
    });
    return new Set(rows.map((row) => row.emailNormalized));
  }

  findInPartnerByEmail(partnerId: number, emailNormalized: string): Promise<PartnerUser | null> {
    return this.findOne({ partnerId, emailNormalized });
  }

  findById(userId: number): Promise<PartnerUser | null> {
    return this.findOne({ id: userId });
  }

  lockInPartner(partnerId: number, userId: number): Promise<PartnerUser | null> {
    // FOR UPDATE on MySQL; SQLite has no row locks, its write transaction excludes every other writer
    return this.findOne({ id: userId, partnerId }, this.dialect.writeLock);
  }

  async saveLastActiveAt(user: PartnerUser): Promise<void> {
    await this.users.update({ id: user.id }, { lastActiveAt: user.lastActiveAt });
  }

  async insertAll(users: PartnerUser[]): Promise<PartnerUser[]> {
    for (const user of users) {
      const row = PartnerUserMapper.toRow(user);
      try {
        // The generated id is the only value TypeORM reads back: from the driver's insert id (or RETURNING).
        const result = await this.users.insert(row);
        user.identify(Number(result.identifiers[0]!.id));
      } catch (error) {
        // ux_partner_users_email is the last guard (D13): a concurrent request took the address.
        if (isUniqueViolation(error)) throw new ConcurrentWriteConflict(row.emailNormalized);
        throw error;
      }
    }
    return users;
  }

  listForPartner(query: PartnerUserListQuery): Promise<Page<PartnerUser>> {
    return this.queries.listUsersOfPartner(query);
  }
}
