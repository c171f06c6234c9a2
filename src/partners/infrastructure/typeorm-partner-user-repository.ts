import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';
import { Page } from '../../shared/application/page';
import { engineOf, isUniqueViolation } from '../../shared/infrastructure/database/database-engine';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import { SqlDatabase, SqlValue } from '../../shared/infrastructure/database/sql-database';
import { ConcurrentWriteConflict } from '../application/concurrent-write-conflict';
import { PartnerUserRepository } from '../application/partner-user-repository';
import { PartnerUser, PartnerUserListQuery, PartnerUserSortKey } from '../domain/partner-user';
import { PartnerUserMapper } from './partner.mapper';
import { PartnerUserOrmEntity } from './partner-user.orm-entity';

/**
 * Sort columns (D24): names compare case-insensitively, by the lower-cased copies written with each
 * user (`foldCase`), byte for byte, which is code point order on both engines; nulls come first; ties
 * go to id.
 */
const SORT_COLUMNS: Record<PartnerUserSortKey, string> = {
  id: 'u.id',
  firstName: 'u.first_name_normalized',
  lastName: 'u.last_name_normalized',
  emailAddress: 'u.email_normalized',
  jobTitle: 'u.job_title_normalized',
  createdAt: 'u.created_at',
};

@Injectable()
export class TypeOrmPartnerUserRepository extends PartnerUserRepository {
  private readonly sql: EntitySql<PartnerUserOrmEntity>;
  private readonly findSql = new Map<string, string>();
  /** `takenEmails`' statement by the number of addresses */
  private readonly takenSql: string[] = [];
  private readonly forUpdate: string;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.sql = new EntitySql(dataSource, PartnerUserOrmEntity, 'u');
    this.forUpdate = engineOf(dataSource) === 'mysql' ? ' FOR UPDATE' : '';
  }

  private get rows() {
    return this.txHost.tx.getRepository(PartnerUserOrmEntity);
  }

  /**
   * Reads go through SqlDatabase, so outside a transaction they see only committed rows (rule 3).
   * `where` is one of the literal conditions below; its statement text is built once.
   */
  private async findOne(where: string, params: SqlValue[]): Promise<PartnerUser | null> {
    let statement = this.findSql.get(where);
    if (statement === undefined) {
      statement = `SELECT ${this.sql.selectList} FROM partner_users u WHERE ${where}`;
      this.findSql.set(where, statement);
    }
    const row = await this.db.one<PartnerUserOrmEntity>(statement, params);
    return row ? PartnerUserMapper.toDomain(this.sql.hydrate(row)) : null;
  }

  findByEmail(emailNormalized: string): Promise<PartnerUser | null> {
    return this.findOne('u.email_normalized = ?', [emailNormalized]);
  }

  async takenEmails(emailsNormalized: string[]): Promise<Set<string>> {
    const distinct = [...new Set(emailsNormalized)];
    if (distinct.length === 0) return new Set();
    const statement = (this.takenSql[distinct.length] ??= `SELECT u.email_normalized FROM partner_users u
        WHERE u.email_normalized IN (${distinct.map(() => '?').join(', ')})`);
    const rows = await this.db.rows(statement, distinct);
    return new Set(rows.map((row) => row[0] as string));
  }

  findInPartnerByEmail(partnerId: number, emailNormalized: string): Promise<PartnerUser | null> {
    return this.findOne('u.partner_id = ? AND u.email_normalized = ?', [partnerId, emailNormalized]);
  }

  findById(userId: number): Promise<PartnerUser | null> {
    return this.findOne('u.id = ?', [userId]);
  }

  lockInPartner(partnerId: number, userId: number): Promise<PartnerUser | null> {
    // SELECT ... FOR UPDATE on MySQL; SQLite has no row locks, the UnitOfWork serializes its transactions
    return this.findOne(`u.id = ? AND u.partner_id = ?${this.forUpdate}`, [userId, partnerId]);
  }

  async saveLastActiveAt(user: PartnerUser): Promise<void> {
    await this.rows.update({ id: user.id }, { lastActiveAt: user.lastActiveAt });
  }

  async insertAll(users: PartnerUser[]): Promise<PartnerUser[]> {
    for (const user of users) {
      const row = PartnerUserMapper.toRow(user);
      try {
        const result = await this.rows.insert(row);
        user.identify(Number(result.identifiers[0]!.id));
      } catch (error) {
        // ux_partner_users_email is the last guard (D13): a concurrent request took the address.
        if (isUniqueViolation(error)) throw new ConcurrentWriteConflict(row.emailNormalized);
        throw error;
      }
    }
    return users;
  }

  async listForPartner(query: PartnerUserListQuery): Promise<Page<PartnerUser>> {
    const counted = await this.db.one<{ total: number | string }>(
      'SELECT COUNT(*) AS total FROM partner_users u WHERE u.partner_id = ?',
      [query.partnerId],
    );
    const totalItems = Number(counted?.total ?? 0);
    const offset = query.page * query.perPage;
    if (offset >= totalItems) return { data: [], page: query.page, perPage: query.perPage, totalItems };
    const rows = await this.db.all<PartnerUserOrmEntity>(
      `SELECT ${this.sql.selectList} FROM partner_users u WHERE u.partner_id = ?
        ORDER BY ${SORT_COLUMNS[query.sortBy]} ASC, u.id ASC ${this.db.limitOffset}`,
      [query.partnerId, query.perPage, offset],
    );
    return {
      data: rows.map((row) => PartnerUserMapper.toDomain(this.sql.hydrate(row))),
      page: query.page,
      perPage: query.perPage,
      totalItems,
    };
  }
}
