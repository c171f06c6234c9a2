import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';
import { Page } from '../../shared/application/page';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-engine';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import { anyStartsWith } from '../../shared/infrastructure/database/prefix-range';
import { SqlDatabase, SqlValue } from '../../shared/infrastructure/database/sql-database';
import { ConcurrentWriteConflict } from '../application/concurrent-write-conflict';
import { PartnerLock, PartnerRepository } from '../application/partner-repository';
import { Partner, PartnerListQuery, PartnerSortKey } from '../domain/partner';
import { PartnerMapper, toConnectionRow } from './partner.mapper';
import { PartnerOrmEntity } from './partner.orm-entity';
import { VendorPartnerOrmEntity } from './vendor-partner.orm-entity';

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
  private readonly byIdSql: string;
  private readonly connectedSql: string;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.sql = new EntitySql(dataSource, PartnerOrmEntity, 'p');
    this.byIdSql = `SELECT ${this.sql.selectList} FROM partners p WHERE p.id = ?`;
    this.connectedSql = `SELECT ${this.sql.selectList} FROM partners p
      JOIN vendor_partners vp ON vp.partner_id = p.id AND vp.vendor_id = ? WHERE p.id = ?`;
  }

  async insert(partner: Partner): Promise<Partner> {
    const result = await this.txHost.tx.getRepository(PartnerOrmEntity).insert(PartnerMapper.toRow(partner));
    partner.identify(Number(result.identifiers[0]!.id));
    return partner;
  }

  /**
   * Reads go through SqlDatabase: outside a transaction they use the SQLite read connection and see
   * only committed rows (docs/performance.md, rule 3). `forUpdate` locks the row on MySQL; SQLite
   * serializes its write transactions and has no row locks.
   */
  async findById(partnerId: number, lock: PartnerLock = {}): Promise<Partner | null> {
    const rows = await this.db.rows(this.locked(this.byIdSql, lock), [partnerId]);
    return rows.length === 0 ? null : PartnerMapper.toDomain(this.sql.fromArray(rows[0]!));
  }

  async findConnected(vendorId: number, partnerId: number, lock: PartnerLock = {}): Promise<Partner | null> {
    const rows = await this.db.rows(this.locked(this.connectedSql, lock), [vendorId, partnerId]);
    return rows.length === 0 ? null : PartnerMapper.toDomain(this.sql.fromArray(rows[0]!));
  }

  private locked(sql: string, lock: PartnerLock): string {
    return lock.forUpdate && this.db.engine === 'mysql' ? `${sql} FOR UPDATE` : sql;
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
        `SELECT vp.partner_id FROM vendor_partners vp WHERE ${where} ORDER BY ${order} ${this.db.limitOffset}`,
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
      const keyword = anyStartsWith(
        ['vp.company_name_normalized', 'vp.contact_email_normalized'],
        query.keyword,
      );
      clauses.push(keyword.sql);
      params.push(...keyword.params);
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
