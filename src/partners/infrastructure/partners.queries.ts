import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Page } from '../../shared/application/page';
import {
  DatabaseDialect,
  dateFromRow,
  nullableDateFromRow,
} from '../../shared/infrastructure/database/database-dialect';
import { anyStartsWith } from '../../shared/infrastructure/database/prefix-range';
import { Partner, PartnerListQuery, PartnerSortKey } from '../domain/partner';
import { PartnerUser, PartnerUserListQuery, PartnerUserSortKey } from '../domain/partner-user';
import { PartnerMapper, PartnerUserMapper } from './partner.mapper';

/** The columns of `partners p`, named as PartnerOrmEntity's properties. */
const PARTNER_COLUMNS = `p.id AS id, p.company_name AS companyName, p.description AS description,
  p.website AS website, p.country AS country, p.company_size AS companySize,
  p.contact_name AS contactName, p.contact_email_address AS contactEmailAddress,
  p.contact_phone AS contactPhone, p.contact_role AS contactRole, p.type AS type,
  p.invited_at AS invitedAt, p.created_at AS createdAt`;

interface PartnerRow {
  id: number | string;
  companyName: string;
  description: string | null;
  website: string | null;
  country: string | null;
  companySize: string | null;
  contactName: string;
  contactEmailAddress: string;
  contactPhone: string | null;
  contactRole: string | null;
  type: string | null;
  invitedAt: unknown;
  createdAt: unknown;
}

/** The columns of `partner_users u`, named as PartnerUserOrmEntity's properties. */
const PARTNER_USER_COLUMNS = `u.id AS id, u.partner_id AS partnerId, u.first_name AS firstName,
  u.first_name_normalized AS firstNameNormalized, u.last_name AS lastName,
  u.last_name_normalized AS lastNameNormalized, u.email_address AS emailAddress,
  u.email_normalized AS emailNormalized, u.phone_number AS phoneNumber, u.job_title AS jobTitle,
  u.job_title_normalized AS jobTitleNormalized, u.last_active_at AS lastActiveAt,
  u.created_at AS createdAt`;

interface PartnerUserRow {
  id: number | string;
  partnerId: number | string;
  firstName: string;
  firstNameNormalized: string;
  lastName: string | null;
  lastNameNormalized: string | null;
  emailAddress: string;
  emailNormalized: string;
  phoneNumber: string | null;
  jobTitle: string | null;
  jobTitleNormalized: string | null;
  lastActiveAt: unknown;
  createdAt: unknown;
}

/** X9: the listing's sort keys, columns of vendor_partners (docs/partners-indexes.md). */
const PARTNER_SORT_COLUMNS: Record<PartnerSortKey, string> = {
  createdAt: 'vp.partner_created_at',
  companyName: 'vp.company_name_normalized',
  id: 'vp.partner_id',
};

/**
 * Sort columns (D24): names compare case-insensitively, by the lower-cased copies written with each
 * user (`foldCase`), byte for byte, which is code point order on both engines; nulls come first; ties
 * go to id.
 */
const PARTNER_USER_SORT_COLUMNS: Record<PartnerUserSortKey, string> = {
  id: 'u.id',
  firstName: 'u.first_name_normalized',
  lastName: 'u.last_name_normalized',
  emailAddress: 'u.email_normalized',
  jobTitle: 'u.job_title_normalized',
  createdAt: 'u.created_at',
};

/**
 * The partners module's hand-written reads: the single partner a vendor reads (X10, D25) and the
 * two listings (X9, D24), whose statements are written to be answered from the indexes of
 * docs/partners-indexes.md. They run in the caller's transaction, or outside one on the data
 * source's own connection, through `txHost.tx`.
 */
@Injectable()
export class PartnerQueries {
  /**
   * A page's `LIMIT ... OFFSET ...`. TypeORM keeps SQLite statements prepared, and SQLite compiles a
   * kept statement again on every run when the LIMIT is a bound parameter it may plan with: `?+0`
   * is the same number as an expression, which it does not plan with.
   */
  private readonly limitOffset: string;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
  ) {
    this.limitOffset = dialect.pick({ sqlite: 'LIMIT ?+0 OFFSET ?', mysql: 'LIMIT ? OFFSET ?' });
  }

  private async query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return (await this.txHost.tx.query(sql, params)) as T[];
  }

  /**
   * The partner when it is connected to the vendor (D25), read through the primary keys of both
   * tables. `forUpdate` locks both rows until the transaction ends on MySQL; SQLite's write
   * transaction already excludes every other writer.
   */
  async findConnectedPartner(
    vendorId: number,
    partnerId: number,
    forUpdate: boolean,
  ): Promise<Partner | null> {
    const [row] = await this.query<PartnerRow>(
      `SELECT ${PARTNER_COLUMNS} FROM partners p
        JOIN vendor_partners vp ON vp.partner_id = p.id AND vp.vendor_id = ?
        WHERE p.id = ?${forUpdate ? this.dialect.forUpdate : ''}`,
      [vendorId, partnerId],
    );
    return row ? partnerFromRow(row) : null;
  }

  /**
   * X9: the count and the page's partner ids from vendor_partners alone (its indexes start with the
   * vendor and end with the partner id, the tie-breaker), then the page's partners by primary key.
   */
  async listPartnersOfVendor(query: PartnerListQuery): Promise<Page<Partner>> {
    const { where, params } = vendorPartnersWhere(query);
    const [counted] = await this.query<{ total: number | string }>(
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
      await this.query<{ partnerId: number | string }>(
        `SELECT vp.partner_id AS partnerId FROM vendor_partners vp WHERE ${where}
          ORDER BY ${order} ${this.limitOffset}`,
        [...params, query.perPage, offset],
      )
    ).map((row) => Number(row.partnerId));
    if (ids.length === 0) return { data: [], ...page };
    const rows = await this.query<PartnerRow>(
      `SELECT ${PARTNER_COLUMNS} FROM partners p WHERE p.id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return { data: ids.map((id) => partnerFromRow(byId.get(id)!)), ...page };
  }

  /** D24: one page of a partner's users, through ix_partner_users_partner and the sort copies. */
  async listUsersOfPartner(query: PartnerUserListQuery): Promise<Page<PartnerUser>> {
    const [counted] = await this.query<{ total: number | string }>(
      'SELECT COUNT(*) AS total FROM partner_users u WHERE u.partner_id = ?',
      [query.partnerId],
    );
    const totalItems = Number(counted?.total ?? 0);
    const page = { page: query.page, perPage: query.perPage, totalItems };
    const offset = query.page * query.perPage;
    if (offset >= totalItems) return { data: [], ...page };
    const rows = await this.query<PartnerUserRow>(
      `SELECT ${PARTNER_USER_COLUMNS} FROM partner_users u WHERE u.partner_id = ?
        ORDER BY ${PARTNER_USER_SORT_COLUMNS[query.sortBy]} ASC, u.id ASC ${this.limitOffset}`,
      [query.partnerId, query.perPage, offset],
    );
    return { data: rows.map(partnerUserFromRow), ...page };
  }
}

/** The WHERE of the listing's count and page: the vendor (D25), the type, the keyword (D33's rules). */
function vendorPartnersWhere(query: PartnerListQuery): { where: string; params: unknown[] } {
  const clauses = ['vp.vendor_id = ?'];
  const params: unknown[] = [query.vendorId];
  if (query.type) {
    clauses.push('vp.partner_type = ?');
    params.push(query.type);
  }
  if (query.keyword) {
    const keyword = anyStartsWith(
      ['vp.company_name_normalized', 'vp.contact_email_normalized'],
      query.keyword,
    );
    clauses.push(keyword.sql);
    params.push(...keyword.params);
  }
  return { where: clauses.join(' AND '), params };
}

/** A raw row as the entity TypeORM would have read: ids as numbers, DATETIMEs as Dates (SQLite sends text). */
function partnerFromRow(row: PartnerRow): Partner {
  return PartnerMapper.toDomain({
    ...row,
    id: Number(row.id),
    invitedAt: nullableDateFromRow(row.invitedAt),
    createdAt: dateFromRow(row.createdAt),
  });
}

function partnerUserFromRow(row: PartnerUserRow): PartnerUser {
  return PartnerUserMapper.toDomain({
    ...row,
    id: Number(row.id),
    partnerId: Number(row.partnerId),
    lastActiveAt: nullableDateFromRow(row.lastActiveAt),
    createdAt: dateFromRow(row.createdAt),
  });
}
