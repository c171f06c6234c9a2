import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource, Not, SelectQueryBuilder } from 'typeorm';
import { DuplicateEntryError } from '../../shared/domain/domain-error';
import {
  DatabaseEngine,
  dbDateTime,
  engineOf,
  isUniqueViolation,
} from '../../shared/infrastructure/database/database-engine';
import { LeadRepository } from '../application/lead-repository';
import { Lead } from '../domain/lead';
import { foldCase } from '../../shared/domain/text';
import { LeadListQuery, LeadSortField } from '../domain/lead-list-query';
import { LeadMapper } from './lead.mapper';
import { LeadOrmEntity } from './lead.orm-entity';

const EARLIEST_STORABLE = new Date(Date.UTC(1000, 0, 1));
const LATEST_STORABLE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

const SORT_COLUMNS: Record<LeadSortField, string> = {
  id: 'l.id',
  createdAt: 'l.createdAt',
  updatedAt: 'l.updatedAt',
};

/**
 * D33: the keyword is a literal prefix. `!` is the LIKE escape character on both engines (a
 * backslash would need different quoting in MySQL and SQLite string literals), so `!`, `%` and `_`
 * typed by the caller are escaped with it and match themselves.
 */
export function likePrefix(keyword: string): string {
  return `${foldCase(keyword).replace(/[!%_]/g, '!$&')}%`;
}

/** D28, in one statement for a whole page: another active lead, or another lead's contact, of the vendor. */
export const DUPLICATES_SQL = (count: number) => `SELECT l.id AS id FROM leads l
  WHERE l.vendor_id = ? AND l.id IN (${Array.from({ length: count }, () => '?').join(', ')})
    AND (EXISTS (SELECT 1 FROM leads o
                 WHERE o.vendor_id = l.vendor_id AND o.email_normalized = l.email_normalized
                   AND o.archived = 0 AND o.id <> l.id)
      OR EXISTS (SELECT 1 FROM contacts c
                 WHERE c.vendor_id = l.vendor_id AND c.email_normalized = l.email_normalized
                   AND c.lead_id <> l.id))`;

@Injectable()
export class TypeOrmLeadRepository extends LeadRepository {
  private readonly engine: DatabaseEngine;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    dataSource: DataSource,
  ) {
    super();
    this.engine = engineOf(dataSource);
  }

  private get rows() {
    return this.txHost.tx.getRepository(LeadOrmEntity);
  }

  async insert(lead: Lead): Promise<void> {
    try {
      const result = await this.rows.insert(LeadMapper.toRow(lead));
      lead.identify(Number(result.identifiers[0]!.id));
    } catch (error) {
      throw translate(error);
    }
  }

  async update(lead: Lead): Promise<void> {
    const { id: _id, ...columns } = LeadMapper.toRow(lead);
    try {
      await this.rows.update({ id: lead.id! }, columns);
    } catch (error) {
      throw translate(error);
    }
  }

  async findForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const row = await this.rows.findOne({ where: { id: leadId, vendorId } });
    return row ? LeadMapper.toDomain(row) : null;
  }

  async lockForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const query = this.rows
      .createQueryBuilder('l')
      .where('l.id = :leadId', { leadId })
      .andWhere('l.vendorId = :vendorId', { vendorId });
    // SELECT ... FOR UPDATE on MySQL. SQLite has no row locks; the UnitOfWork serializes its transactions.
    if (this.engine === 'mysql') query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? LeadMapper.toDomain(row) : null;
  }

  async emailTaken(
    vendorId: number,
    partnerId: number,
    emailNormalized: string,
    exceptLeadId?: number,
  ): Promise<boolean> {
    return this.rows.exists({
      where: {
        vendorId,
        partnerId,
        emailNormalized,
        ...(exceptLeadId !== undefined ? { id: Not(exceptLeadId) } : {}),
      },
    });
  }

  async listForPartner(query: LeadListQuery): Promise<{ leads: Lead[]; totalItems: number }> {
    const filtered = this.filtered(query);
    const counted = await filtered
      .clone()
      .select('COUNT(*)', 'total')
      .getRawOne<{ total: number | string }>();
    const totalItems = Number(counted?.total ?? 0);
    if (totalItems === 0 || query.page * query.perPage >= totalItems) return { leads: [], totalItems };
    const rows = await this.pageQuery(query).getMany();
    return { leads: rows.map(LeadMapper.toDomain), totalItems };
  }

  /** The page SELECT; docs/leads-indexes.md shows its plans. */
  private pageQuery(query: LeadListQuery): SelectQueryBuilder<LeadOrmEntity> {
    const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC';
    return this.filtered(query)
      .orderBy(SORT_COLUMNS[query.sortBy], direction)
      .addOrderBy('l.id', direction) // api.md 6, D33: ties broken by id, in the same direction
      .offset(query.page * query.perPage)
      .limit(query.perPage);
  }

  /** The WHERE every listing query shares (the page and its COUNT). */
  private filtered(query: LeadListQuery): SelectQueryBuilder<LeadOrmEntity> {
    const qb = this.rows
      .createQueryBuilder('l')
      .where('l.vendorId = :vendorId', { vendorId: query.vendorId })
      .andWhere('l.partnerId = :partnerId', { partnerId: query.partnerId })
      .andWhere('l.archived = :archived', { archived: query.archived ? 1 : 0 });
    if (query.approvalStatus)
      qb.andWhere('l.approvalStatus = :approvalStatus', { approvalStatus: query.approvalStatus });
    if (query.statuses.length > 0) qb.andWhere('l.status IN (:...statuses)', { statuses: query.statuses });
    if (query.sources.length > 0) qb.andWhere('l.source IN (:...sources)', { sources: query.sources });
    if (query.keyword) {
      qb.andWhere(
        "(l.firstNameNormalized LIKE :keyword ESCAPE '!' OR l.emailNormalized LIKE :keyword ESCAPE '!')",
        {
          keyword: likePrefix(query.keyword),
        },
      );
    }
    // A bound outside the years a DATETIME holds (1000-9999) excludes nothing: it is left out rather
    // than sent (SQLite would compare '+010000-...' as text, MySQL cannot store it).
    if (query.createdFrom && query.createdFrom > EARLIEST_STORABLE)
      qb.andWhere('l.createdAt >= :createdFrom', { createdFrom: dbDateTime(this.engine, query.createdFrom) });
    if (query.createdUntil && query.createdUntil <= LATEST_STORABLE)
      qb.andWhere('l.createdAt < :createdUntil', {
        createdUntil: dbDateTime(this.engine, query.createdUntil),
      });
    return qb;
  }

  async duplicatesAmong(vendorId: number, leadIds: number[]): Promise<Set<number>> {
    if (leadIds.length === 0) return new Set();
    const rows: { id: number | string }[] = await this.txHost.tx.query(DUPLICATES_SQL(leadIds.length), [
      vendorId,
      ...leadIds,
    ]);
    return new Set(rows.map((row) => Number(row.id)));
  }
}

function translate(error: unknown): unknown {
  // D27: ux_leads_partner_email is the only unique index besides the primary key.
  if (isUniqueViolation(error)) {
    return new DuplicateEntryError(
      'emailAddress',
      'a lead with this email address already exists for this partner',
    );
  }
  return error;
}
