import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource, In, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Page } from '../../shared/application/page';
import { engineOf, isUniqueViolation } from '../../shared/infrastructure/database/database-engine';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import {
  dateFromRow,
  nullableDateFromRow,
  SqlDatabase,
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
import { Partner } from '../domain/partner';
import {
  NewPartnerUser,
  PartnerUser,
  PartnerUserListQuery,
  PartnerUserSortKey,
} from '../domain/partner-user';
import { PartnerMapper, PartnerUserMapper } from './partner.mapper';
import {
  InvitationOrmEntity,
  PartnerOrmEntity,
  PartnerUserOrmEntity,
  VendorPartnerOrmEntity,
} from './partner.orm-entities';

@Injectable()
export class TypeOrmPartnerRepository extends PartnerRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
  ) {
    super();
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

  async connect(vendorId: number, partnerId: number, at: Date): Promise<void> {
    try {
      await this.txHost.tx
        .getRepository(VendorPartnerOrmEntity)
        .insert({ vendorId, partnerId, createdAt: at });
    } catch (error) {
      // The primary key (vendor_id, partner_id) guards concurrent connects of one partner (D20).
      if (isUniqueViolation(error)) throw new ConcurrentWriteConflict();
      throw error;
    }
  }

  async recordInvitedAt(partnerId: number, at: Date): Promise<void> {
    await this.txHost.tx.getRepository(PartnerOrmEntity).update({ id: partnerId }, { invitedAt: at });
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
