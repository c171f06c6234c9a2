import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource, In, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Page } from '../../shared/application/page';
import { engineOf, isUniqueViolation } from '../../shared/infrastructure/database/database-engine';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import { likePrefix } from '../../shared/infrastructure/database/like-prefix';
import {
  dateFromRow,
  nullableDateFromRow,
  SqlDatabase,
  SqlValue,
} from '../../shared/infrastructure/database/sql-database';
import {
  ConcurrentWriteConflict,
  InvitationRepository,
  PartnerLock,
  PartnerRepository,
  PartnerUserRepository,
  VendorDirectory,
} from '../application/ports';
import { Invitation, NewInvitation } from '../domain/invitation';
import { Partner, PartnerListQuery, PartnerSortKey } from '../domain/partner';
import {
  NewPartnerUser,
  PartnerUser,
  PartnerUserListQuery,
  PartnerUserSortKey,
} from '../domain/partner-user';
import { PartnerMapper, PartnerUserMapper, toConnectionRow } from './partner.mapper';
import {
  InvitationOrmEntity,
  PartnerOrmEntity,
  PartnerUserOrmEntity,
  VendorPartnerOrmEntity,
} from './partner.orm-entities';

/** X9: the listing's sort keys, columns of vendor_partners (docs/partners-indexes.md). */
const PARTNER_SORT_COLUMNS: Record<PartnerSortKey, string> = {
  createdAt: 'vp.partner_created_at',
  companyName: 'vp.company_name_normalized',
  id: 'vp.partner_id',
};

@Injectable()
export class TypeOrmPartnerRepository extends PartnerRepository {
  private readonly sql: EntitySql<PartnerOrmEntity>;
  private readonly byIdsSql: string[] = [];

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.sql = new EntitySql(dataSource, PartnerOrmEntity, 'p');
  }

  async insert(partner: Partner): Promise<Partner> {
    const result = await this.txHost.tx.getRepository(PartnerOrmEntity).insert(PartnerMapper.toRow(partner));
    return partner.withId(Number(result.identifiers[0]!.id));
  }

  async findById(partnerId: number, lock: PartnerLock = {}): Promise<Partner | null> {
    const query = this.txHost.tx
      .getRepository(PartnerOrmEntity)
      .createQueryBuilder('p')
      .where('p.id = :partnerId', { partnerId });
    const row = await this.locked(query, lock).getOne();
    return row ? PartnerMapper.toDomain(row) : null;
  }

  async findConnected(vendorId: number, partnerId: number, lock: PartnerLock = {}): Promise<Partner | null> {
    const query = this.txHost.tx
      .getRepository(PartnerOrmEntity)
      .createQueryBuilder('p')
      .innerJoin(VendorPartnerOrmEntity, 'vp', 'vp.partner_id = p.id AND vp.vendor_id = :vendorId', {
        vendorId,
      })
      .where('p.id = :partnerId', { partnerId });
    const row = await this.locked(query, lock).getOne();
    return row ? PartnerMapper.toDomain(row) : null;
  }

  /** FOR UPDATE on MySQL; SQLite serializes its transactions and has no row locks. */
  private locked<T extends ObjectLiteral>(
    query: SelectQueryBuilder<T>,
    lock: PartnerLock,
  ): SelectQueryBuilder<T> {
    if (!lock.forUpdate || engineOf(this.txHost.tx.connection) !== 'mysql') return query;
    return query.setLock('pessimistic_write');
  }

  async isConnected(vendorId: number, partnerId: number): Promise<boolean> {
    const row = await this.db.one(
      'SELECT 1 AS connected FROM vendor_partners WHERE vendor_id = ? AND partner_id = ?',
      [vendorId, partnerId],
    );
    return row !== undefined;
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

  /**
   * X9: the count and the page's partner ids from vendor_partners alone (its indexes start with the
   * vendor and end with the partner id, the tie-breaker), then the page's partners by primary key.
   */
  async listForVendor(query: PartnerListQuery): Promise<Page<Partner>> {
    const { where, params } = this.filtered(query);
    const counted = await this.db.one<{ total: number | string }>(
      `SELECT COUNT(*) AS total FROM vendor_partners vp WHERE ${where}`,
      params,
    );
    const totalItems = Number(counted?.total ?? 0);
    const page = { page: query.page, perPage: query.perPage, totalItems };
    const offset = query.page * query.perPage;
    if (offset >= totalItems) return { data: [], ...page };
    const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC';
    // ties broken by id in the same direction (X9, as D33)
    const order =
      query.sortBy === 'id'
        ? `vp.partner_id ${direction}`
        : `${PARTNER_SORT_COLUMNS[query.sortBy]} ${direction}, vp.partner_id ${direction}`;
    const ids = (
      await this.db.rows(
        `SELECT vp.partner_id FROM vendor_partners vp WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
        [...params, query.perPage, offset],
      )
    ).map((row) => Number(row[0]));
    if (ids.length === 0) return { data: [], ...page };
    const rows = await this.db.rows(this.selectByIds(ids.length), ids);
    const byId = new Map(rows.map((row) => [Number(row[0]), row]));
    const data = ids.map((id) => PartnerMapper.toDomain(this.sql.fromArray(byId.get(id)!)));
    return { data, ...page };
  }

  /** The WHERE of the listing's count and page: the vendor (D25), the type, the keyword (D33's rules). */
  private filtered(query: PartnerListQuery): { where: string; params: SqlValue[] } {
    const clauses = ['vp.vendor_id = ?'];
    const params: SqlValue[] = [query.vendorId];
    if (query.type) {
      clauses.push('vp.partner_type = ?');
      params.push(query.type);
    }
    if (query.keyword) {
      clauses.push(
        `(vp.company_name_normalized LIKE ? ESCAPE '!' OR vp.contact_email_normalized LIKE ? ESCAPE '!')`,
      );
      const prefix = likePrefix(query.keyword);
      params.push(prefix, prefix);
    }
    return { where: clauses.join(' AND '), params };
  }

  private selectByIds(count: number): string {
    return (this.byIdsSql[count] ??=
      `SELECT ${this.sql.selectList} FROM partners p WHERE p.id IN (${Array.from(
        { length: count },
        () => '?',
      ).join(', ')})`);
  }
}

/** Sort expressions (D24): names compare case-insensitively on both engines; ties go to id. */
const SORT_EXPRESSIONS: Record<PartnerUserSortKey, string> = {
  id: 'u.id',
  firstName: 'LOWER(u.first_name)',
  lastName: 'LOWER(u.last_name)',
  emailAddress: 'u.email_normalized',
  jobTitle: 'LOWER(u.job_title)',
  createdAt: 'u.created_at',
};

@Injectable()
export class TypeOrmPartnerUserRepository extends PartnerUserRepository {
  private readonly sql: EntitySql<PartnerUserOrmEntity>;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.sql = new EntitySql(dataSource, PartnerUserOrmEntity, 'u');
  }

  private get rows() {
    return this.txHost.tx.getRepository(PartnerUserOrmEntity);
  }

  async findByEmail(emailNormalized: string): Promise<PartnerUser | null> {
    const row = await this.rows.findOne({ where: { emailNormalized } });
    return row ? PartnerUserMapper.toDomain(row) : null;
  }

  async takenEmails(emailsNormalized: string[]): Promise<Set<string>> {
    if (emailsNormalized.length === 0) return new Set();
    const rows = await this.rows.find({
      select: { id: true, emailNormalized: true },
      where: { emailNormalized: In([...new Set(emailsNormalized)]) },
    });
    return new Set(rows.map((row) => row.emailNormalized));
  }

  async findInPartnerByEmail(partnerId: number, emailNormalized: string): Promise<PartnerUser | null> {
    const row = await this.rows.findOne({ where: { partnerId, emailNormalized } });
    return row ? PartnerUserMapper.toDomain(row) : null;
  }

  async findById(userId: number): Promise<PartnerUser | null> {
    const row = await this.rows.findOne({ where: { id: userId } });
    return row ? PartnerUserMapper.toDomain(row) : null;
  }

  async findInPartner(partnerId: number, userId: number): Promise<PartnerUser | null> {
    const row = await this.rows.findOne({ where: { id: userId, partnerId } });
    return row ? PartnerUserMapper.toDomain(row) : null;
  }

  async saveLastActiveAt(user: PartnerUser): Promise<void> {
    await this.rows.update({ id: user.id }, { lastActiveAt: user.lastActiveAt });
  }

  async insertAll(users: NewPartnerUser[]): Promise<PartnerUser[]> {
    const created: PartnerUser[] = [];
    for (const user of users) {
      const row = PartnerUserMapper.toRow(user);
      try {
        const result = await this.rows.insert(row);
        created.push({ ...user, id: Number(result.identifiers[0]!.id) });
      } catch (error) {
        // ux_partner_users_email is the last guard (D13): a concurrent request took the address.
        if (isUniqueViolation(error)) throw new ConcurrentWriteConflict(row.emailNormalized);
        throw error;
      }
    }
    return created;
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
        ORDER BY ${SORT_EXPRESSIONS[query.sortBy]} ASC, u.id ASC LIMIT ? OFFSET ?`,
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

interface InvitationRow {
  id: number | string;
  userId: number | string;
  vendorId: number | string;
  createdAt: unknown;
  usedAt: unknown;
  superseded: number | string;
}

/**
 * X20: found by the unique index on token_hash, for the caller's vendor only. An invitation is
 * superseded when a later one (a higher id: ids grow with time) exists for the same user and vendor,
 * which only a reinvite creates; ix_invitations_user_vendor answers that. `used_at` is when the link
 * was accepted.
 */
const FIND_BY_TOKEN_HASH = `SELECT i.id AS id, i.user_id AS userId, i.vendor_id AS vendorId,
    i.created_at AS createdAt, i.used_at AS usedAt,
    EXISTS (SELECT 1 FROM invitations later
      WHERE later.user_id = i.user_id AND later.vendor_id = i.vendor_id AND later.id > i.id) AS superseded
  FROM invitations i WHERE i.token_hash = ? AND i.vendor_id = ?`;

@Injectable()
export class TypeOrmInvitationRepository extends InvitationRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
  ) {
    super();
  }

  async insert(invitation: NewInvitation): Promise<void> {
    await this.txHost.tx.getRepository(InvitationOrmEntity).insert({ ...invitation, usedAt: null });
  }

  async findForVendorByTokenHash(vendorId: number, tokenHash: string): Promise<Invitation | null> {
    const row = await this.db.one<InvitationRow>(FIND_BY_TOKEN_HASH, [tokenHash, vendorId]);
    if (!row) return null;
    return Invitation.restore({
      id: Number(row.id),
      userId: Number(row.userId),
      vendorId: Number(row.vendorId),
      createdAt: dateFromRow(row.createdAt),
      acceptedAt: nullableDateFromRow(row.usedAt),
      superseded: Number(row.superseded) === 1,
    });
  }

  async markAccepted(invitationId: number, at: Date): Promise<boolean> {
    // On MySQL a concurrent accept waits here for the first one's row lock, then finds used_at set.
    const result = await this.db.run('UPDATE invitations SET used_at = ? WHERE id = ? AND used_at IS NULL', [
      at,
      invitationId,
    ]);
    return result.affected === 1;
  }
}

/**
 * Reads the vendor's name from the vendors table. The vendors module exposes no name lookup yet;
 * this one query is the only place partners reads a table it does not own.
 */
@Injectable()
export class TypeOrmVendorDirectory extends VendorDirectory {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  async nameOf(vendorId: number): Promise<string> {
    const rows: { name: string }[] = await this.txHost.tx.query('SELECT name FROM vendors WHERE id = ?', [
      vendorId,
    ]);
    if (rows.length === 0) throw new Error(`vendor ${vendorId} not found`);
    return rows[0]!.name;
  }
}
