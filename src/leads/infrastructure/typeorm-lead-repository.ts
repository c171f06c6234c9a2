import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { otherContactHasEmailSql } from '../../contacts';
import {
  DatabaseEngine,
  engineOf,
  isUniqueViolation,
} from '../../shared/infrastructure/database/database-engine';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import { anyStartsWith, startsWith } from '../../shared/infrastructure/database/prefix-range';
import { SqlDatabase, SqlValue } from '../../shared/infrastructure/database/sql-database';
import { LeadRepository } from '../application/lead-repository';
import type { LeadView } from '../application/lead-views';
import { Lead } from '../domain/lead';
import { leadEmailTaken } from '../domain/lead-email-taken';
import { LeadListQuery, LeadSortField } from '../domain/lead-list-query';
import { LeadBucket, LeadCounts, bucketOf } from './lead-counts';
import { LeadMapper } from './lead.mapper';
import { LeadOrmEntity } from './lead.orm-entity';

const EARLIEST_STORABLE = new Date(Date.UTC(1000, 0, 1));
const LATEST_STORABLE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

const SORT_COLUMNS: Record<LeadSortField, string> = {
  id: 'id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/**
 * D28 for the lead `l`: another active lead, or another lead's contact, of the vendor has its email.
 * On MySQL the other leads are read by `ix_leads_vendor_email` by force: for the server-side
 * prepared statements the service runs, MariaDB sometimes chose `ix_leads_partner_id` (whose
 * first column is also vendor_id) for this subquery, reading every lead of the vendor, row by
 * row, for each lead of a page; a page of 20 of 3,000 leads then took about half a second instead
 * of a few milliseconds (docs/leads-indexes.md).
 */
const isDuplicateSql = (engine: DatabaseEngine): string => `(EXISTS (SELECT 1 FROM leads o${
  engine === 'mysql' ? ' FORCE INDEX (ix_leads_vendor_email)' : ''
}
                 WHERE o.vendor_id = l.vendor_id AND o.email_normalized = l.email_normalized
                   AND o.archived = 0 AND o.id <> l.id)
      OR ${otherContactHasEmailSql('l')})`;

/**
 * D28, in one statement for a whole page: another active lead, or another lead's contact, of the
 * vendor. `vendor_id + 0` keeps SQLite from walking the vendor's whole email index (it is covering,
 * so the planner likes it) instead of looking the page's ids up by primary key.
 */
const duplicatesSql = (engine: DatabaseEngine, count: number): string =>
  `SELECT l.id AS id FROM leads l
  WHERE l.vendor_id + 0 = ? AND l.id IN (${Array.from({ length: count }, () => '?').join(', ')})
    AND ${isDuplicateSql(engine)}`;

/**
 * The ids of the bucket's leads whose first name or email starts with the keyword: two ranges, of
 * `ix_leads_partner_first_name` and `ux_leads_partner_email`, unioned, each written as
 * `>= from AND < to` (prefix-range.ts; docs/leads-indexes.md).
 */
function keywordIds(keyword: string, bucket: SqlValue[]): { sql: string; params: SqlValue[] } {
  const parts = ['first_name_normalized', 'email_normalized'].map((column) =>
    startsWith(`k.${column}`, keyword),
  );
  return {
    sql: parts
      .map(
        (part) =>
          `SELECT k.id FROM leads k WHERE k.vendor_id = ? AND k.partner_id = ? AND k.archived = ? AND ${part.sql}`,
      )
      .join(' UNION '),
    params: parts.flatMap((part) => [...bucket, ...part.params]),
  };
}

@Injectable()
export class TypeOrmLeadRepository extends LeadRepository {
  private readonly engine: DatabaseEngine;
  private readonly sql: EntitySql<LeadOrmEntity>;
  private readonly counts: LeadCounts;
  private readonly selectById: string;
  private readonly selectViewById: string;
  /** selectViewsByIds by the number of ids, built once each. */
  private readonly viewsByIdsSql: string[] = [];
  /** duplicatesSql by the number of ids, built once each. */
  private readonly duplicatesByCount: string[] = [];
  private readonly lockById: string;
  /** A join whose left side stays the outer loop: SQLite's CROSS JOIN, MySQL's STRAIGHT_JOIN. */
  private readonly outerJoin: string;
  /**
   * The row as stored of each lead this repository inserted or locked, so that an update writes
   * only the columns that changed (rule 20) and knows which count bucket the lead leaves. Leads that
   * are only read (findForVendor, views, listings) are not remembered: an entry in a WeakMap costs
   * the garbage collector work at every young collection, and remembering a page of 20 leads per
   * listing cost about a tenth of its CPU (docs/performance.md, rule 24).
   */
  private readonly storedRows = new WeakMap<Lead, LeadOrmEntity>();

  constructor(
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.engine = engineOf(dataSource);
    this.sql = new EntitySql(dataSource, LeadOrmEntity, 'l');
    this.counts = new LeadCounts(db);
    // Wide rows, read packed (docs/performance.md, rule 21).
    const byId = `SELECT ${db.packedColumns(this.sql.columnList)} FROM leads l WHERE l.id = ? AND l.vendor_id = ?`;
    this.selectViewById = `SELECT ${db.packedColumns(`${this.sql.columnList}, ${isDuplicateSql(this.engine)}`)}
      FROM leads l WHERE l.id = ? AND l.vendor_id = ?`;
    this.selectById = byId;
    // SELECT ... FOR UPDATE on MySQL. SQLite has no row locks; the UnitOfWork serializes its transactions.
    this.lockById = this.engine === 'mysql' ? `${byId} FOR UPDATE` : byId;
    this.outerJoin = this.engine === 'mysql' ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
  }

  async insert(lead: Lead): Promise<void> {
    const row = LeadMapper.toRow(lead);
    try {
      const { insertId } = await this.db.run(this.sql.insert, this.sql.values(row));
      lead.identify(insertId);
    } catch (error) {
      throw translate(error);
    }
    await this.counts.added(lead);
    this.storedRows.set(lead, row);
  }

  async update(lead: Lead): Promise<void> {
    const before = this.storedRows.get(lead);
    if (!before) throw new Error(`lead ${lead.id} was not inserted or locked by this repository`);
    const row = LeadMapper.toRow(lead);
    const changed = this.sql.updateChanged(row, before);
    if (changed) {
      try {
        await this.db.run(changed.sql, [...changed.values, lead.id!]);
      } catch (error) {
        throw translate(error);
      }
    }
    await this.counts.moved(lead, bucketOfRow(before), bucketOf(lead));
    this.storedRows.set(lead, row);
  }

  async findForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const [row] = await this.db.packedRows(this.selectById, [leadId, vendorId]);
    return row ? this.restore(row) : null;
  }

  async findViewForVendor(leadId: number, vendorId: number): Promise<LeadView | null> {
    const [row] = await this.db.packedRows(this.selectViewById, [leadId, vendorId]);
    return row ? { lead: this.restore(row), isDuplicate: Boolean(row[row.length - 1]) } : null;
  }

  async lockForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const [row] = await this.db.packedRows(this.lockById, [leadId, vendorId]);
    if (!row) return null;
    const stored = this.sql.fromArray(row);
    const lead = LeadMapper.toDomain(stored);
    this.storedRows.set(lead, stored);
    return lead;
  }

  async emailTaken(
    vendorId: number,
    partnerId: number,
    emailNormalized: string,
    exceptLeadId?: number,
  ): Promise<boolean> {
    const found = await this.db.one(
      `SELECT 1 AS taken FROM leads
        WHERE vendor_id = ? AND partner_id = ? AND email_normalized = ? AND id <> ?`,
      [vendorId, partnerId, emailNormalized, exceptLeadId ?? 0],
    );
    return found !== undefined;
  }

  async listForPartner(query: LeadListQuery): Promise<{ leads: LeadView[]; totalItems: number }> {
    const totalItems = await this.countMatching(query);
    if (totalItems === 0 || query.page * query.perPage >= totalItems) return { leads: [], totalItems };
    if (this.engine === 'sqlite') return { leads: await this.pageInTwoSteps(query), totalItems };
    const leads = (await this.db.rows(...this.pageQuery(query))).map((row) => this.restore(row));
    if (leads.length === 0) return { leads: [], totalItems };
    const duplicates = await this.duplicatesAmong(
      query.vendorId,
      leads.map((lead) => lead.id!),
    );
    return { leads: leads.map((lead) => ({ lead, isDuplicate: duplicates.has(lead.id!) })), totalItems };
  }

  /**
   * SQLite: the page's ids from the covering index, then their rows by primary key with their
   * isDuplicate (D28), put in the ids' order here. Two statements cost less than one join that
   * sorts the wide rows again (measured 134 us against 198 us for 20 of 20,000), and D28 read with
   * the rows costs less than a statement of its own that looks the ids up again (docs/performance.md,
   * rule 23). On MySQL the join saves a round trip instead, and D28 is a statement of its own.
   */
  private async pageInTwoSteps(query: LeadListQuery): Promise<LeadView[]> {
    const [idsSql, params] = this.pageIdsQuery(query);
    const ids = (await this.db.rows(idsSql, params)).map((row) => row[0] as number);
    if (ids.length === 0) return [];
    const rows = await this.db.packedRows(this.selectViewsByIds(ids.length), ids);
    const position = new Map(ids.map((id, index) => [id, index]));
    rows.sort((a, b) => position.get(a[0] as number)! - position.get(b[0] as number)!);
    return rows.map((row) => ({ lead: this.restore(row), isDuplicate: Boolean(row[row.length - 1]) }));
  }

  /** SQLite: leads by id, each row ending with its isDuplicate (D28), packed (rule 21). */
  private selectViewsByIds(count: number): string {
    return (this.viewsByIdsSql[count] ??= `SELECT ${this.db.packedColumns(
      `${this.sql.columnList}, ${isDuplicateSql(this.engine)}`,
    )} FROM leads l WHERE l.id IN (${Array.from({ length: count }, () => '?').join(', ')})`);
  }

  /**
   * Without row filters the maintained counts answer at once, whatever the partner's size; with
   * them, COUNT(*) walks the index range of the filter (docs/leads-indexes.md).
   */
  private async countMatching(query: LeadListQuery): Promise<number> {
    const { from, where, params, rowFilters } = this.filtered(query, 'f');
    const counted = rowFilters
      ? await this.db.one<{ total: number | string }>(
          `SELECT COUNT(*) AS total FROM ${from} WHERE ${where}`,
          params,
        )
      : await this.db.one<{ total: number | string | null }>(
          `SELECT SUM(total) AS total FROM lead_counts
            WHERE vendor_id = ? AND partner_id = ? AND archived = ?${query.approvalStatus ? ' AND approval_status = ?' : ''}`,
          params,
        );
    return Number(counted?.total ?? 0);
  }

  /**
   * The page SELECT; docs/leads-indexes.md shows its plans. The ids of the page are found on the
   * index alone (a deep OFFSET walks index entries, not rows), then only those rows are read.
   */
  private pageQuery(query: LeadListQuery): [string, SqlValue[]] {
    const [idsSql, params] = this.pageIdsQuery(query);
    return [
      `SELECT ${this.sql.selectList} FROM (${idsSql}) page JOIN leads l ON l.id = page.id ORDER BY ${this.order(query, 'l')}`,
      params,
    ];
  }

  /** The ids of one page, in order, read from the listing's index alone (or the keyword's ranges). */
  private pageIdsQuery(query: LeadListQuery): [string, SqlValue[]] {
    const { from, where, params } = this.filtered(query, 'f');
    return [
      `SELECT f.id FROM ${from} WHERE ${where} ORDER BY ${this.order(query, 'f')} ${this.db.limitOffset}`,
      [...params, query.perPage, query.page * query.perPage],
    ];
  }

  /** docs/api.md 6, D33: the sort, ties broken by id in the same direction. */
  private order(query: LeadListQuery, alias: string): string {
    const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC';
    return `${alias}.${SORT_COLUMNS[query.sortBy]} ${direction}, ${alias}.id ${direction}`;
  }

  /**
   * The FROM and WHERE every listing query shares (the page and its COUNT), with their parameters
   * in that order. `rowFilters`: whether it filters on more than the (archived, approvalStatus)
   * bucket that lead_counts keeps.
   */
  private filtered(
    query: LeadListQuery,
    alias: string,
  ): { from: string; where: string; params: SqlValue[]; rowFilters: boolean } {
    const a = alias;
    const clauses = [`${a}.vendor_id = ?`, `${a}.partner_id = ?`, `${a}.archived = ?`];
    const params: SqlValue[] = [query.vendorId, query.partnerId, query.archived];
    if (query.approvalStatus) {
      clauses.push(`${a}.approval_status = ?`);
      params.push(query.approvalStatus);
    }
    const bucketClauses = clauses.length;
    if (query.statuses.length > 0) {
      clauses.push(`${a}.status IN (${query.statuses.map(() => '?').join(', ')})`);
      params.push(...query.statuses);
    }
    if (query.sources.length > 0) {
      clauses.push(`${a}.source IN (${query.sources.map(() => '?').join(', ')})`);
      params.push(...query.sources);
    }
    let from = `leads ${a}`;
    if (query.keyword && query.statuses.length === 0 && query.sources.length === 0) {
      // The keyword's two index ranges (first name, email), unioned, drive the query as its outer
      // loop, and the rest of the WHERE is checked on each match: the count and the page cost what
      // the matches cost. Otherwise SQLite (no statistics, a LIKE that cannot use these indexes)
      // walked the partner's whole listing index for both, and MySQL did for the page, walking the
      // sort index until 20 matches turned up (all of it for a rare keyword). With a status or
      // source filter, whose own index range is there, the engine chooses (docs/leads-indexes.md).
      const ids = keywordIds(query.keyword, [query.vendorId, query.partnerId, query.archived]);
      from = `(${ids.sql}) m ${this.outerJoin} leads ${a} ON ${a}.id = m.id`;
      params.unshift(...ids.params);
    }
    if (query.keyword) {
      // The prefix itself, tested on each match (or on each row of the status or source range).
      const keyword = anyStartsWith([`${a}.first_name_normalized`, `${a}.email_normalized`], query.keyword);
      clauses.push(keyword.sql);
      params.push(...keyword.params);
    }
    // A bound outside the years a DATETIME holds (1000-9999) excludes nothing: it is left out rather
    // than sent (SQLite would compare '+010000-...' as text, MySQL cannot store it).
    if (query.createdFrom && query.createdFrom > EARLIEST_STORABLE) {
      clauses.push(`${a}.created_at >= ?`);
      params.push(query.createdFrom);
    }
    if (query.createdUntil && query.createdUntil <= LATEST_STORABLE) {
      clauses.push(`${a}.created_at < ?`);
      params.push(query.createdUntil);
    }
    return { from, where: clauses.join(' AND '), params, rowFilters: clauses.length > bucketClauses };
  }

  async duplicatesAmong(vendorId: number, leadIds: number[]): Promise<Set<number>> {
    if (leadIds.length === 0) return new Set();
    const sql = (this.duplicatesByCount[leadIds.length] ??= duplicatesSql(this.engine, leadIds.length));
    const rows = await this.db.all<{ id: number | string }>(sql, [vendorId, ...leadIds]);
    return new Set(rows.map((row) => Number(row.id)));
  }

  /** A lead as read, for reading only (see storedRows). */
  private restore(values: readonly unknown[]): Lead {
    return LeadMapper.toDomain(this.sql.fromArray(values));
  }
}

function bucketOfRow(row: LeadOrmEntity): LeadBucket {
  return { archived: Boolean(row.archived), approvalStatus: row.approvalStatus };
}

function translate(error: unknown): unknown {
  // D27: ux_leads_partner_email is the only unique index besides the primary key.
  if (isUniqueViolation(error)) {
    return leadEmailTaken();
  }
  return error;
}
