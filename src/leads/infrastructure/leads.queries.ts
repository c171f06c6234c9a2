import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { otherContactHasEmailSql } from '../../contacts';
import {
  DatabaseDialect,
  dateFromRow,
  nullableDateFromRow,
} from '../../shared/infrastructure/database/database-dialect';
import { anyStartsWith, startsWith } from '../../shared/infrastructure/database/prefix-range';
import type { LeadView } from '../application/lead-views';
import { LeadListQuery, LeadSortField } from '../domain/lead-list-query';
import { LeadMapper } from './lead.mapper';
import type { LeadOrmEntity } from './lead.orm-entity';

/** A value bound to a `?` placeholder (booleans are sent as 0 or 1, dates through DatabaseDialect). */
type Param = string | number | Date | null;

const EARLIEST_STORABLE = new Date(Date.UTC(1000, 0, 1));
const LATEST_STORABLE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

const SORT_COLUMNS: Record<LeadSortField, string> = {
  id: 'id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/** Every column of `leads l`, named as LeadOrmEntity's properties, so a row reads as the entity. */
const LEAD_COLUMNS = `l.id AS id, l.vendor_id AS vendorId, l.partner_id AS partnerId,
  l.first_name AS firstName, l.first_name_normalized AS firstNameNormalized, l.last_name AS lastName,
  l.email_address AS emailAddress, l.email_normalized AS emailNormalized, l.phone_number AS phoneNumber,
  l.linked_in_url AS linkedInUrl, l.company_name AS companyName, l.website_url AS websiteUrl,
  l.company_size AS companySize, l.industry AS industry, l.job_title AS jobTitle, l.city AS city,
  l.state AS state, l.country AS country, l.source AS source, l.status AS status, l.lead_age AS leadAge,
  l.products_interested AS productsInterested, l.business_impact_metrics AS businessImpactMetrics,
  l.external_id AS externalId, l.approval_status AS approvalStatus, l.archived AS archived,
  l.reject_reason AS rejectReason, l.reject_comment AS rejectComment, l.last_active_at AS lastActiveAt,
  l.submitted_by_type AS submittedByType, l.created_at AS createdAt, l.updated_at AS updatedAt`;

const placeholders = (count: number): string => Array.from({ length: count }, () => '?').join(', ');

/**
 * The leads module's hand-written SQL: the reads of the hot paths (a lead with its isDuplicate, the
 * listing and its count, D28 for a page) and the two statements TypeORM cannot express (the
 * lead_counts upsert that adds to a total, the import's SQLite setting). Everything runs on
 * `txHost.tx`: the caller's transaction, or the data source outside one. The write side goes through
 * TypeORM's repositories (typeorm-lead-repository.ts, typeorm-lead-batch-writer.ts).
 */
@Injectable()
export class LeadQueries {
  private readonly viewByIdSql: string;
  /** viewsByIdsSql by the number of ids, built once each. */
  private readonly viewsByIdsSql: string[] = [];
  /** duplicatesSql by the number of ids, built once each. */
  private readonly duplicatesSql: string[] = [];
  private readonly countUpsertSql: string;
  private readonly pageOf: (query: LeadListQuery) => Promise<LeadView[]>;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
  ) {
    this.viewByIdSql = `SELECT ${LEAD_COLUMNS}, ${this.isDuplicateSql()} AS isDuplicate
      FROM leads l WHERE l.id = ? AND l.vendor_id = ?`;
    const insert = `INSERT INTO lead_counts (vendor_id, partner_id, archived, approval_status, slot, total)
      VALUES (?, ?, ?, ?, ?, ?)`;
    this.countUpsertSql = dialect.pick({
      mysql: `${insert} ON DUPLICATE KEY UPDATE total = total + VALUES(total)`,
      sqlite: `${insert} ON CONFLICT (vendor_id, partner_id, archived, approval_status, slot)
        DO UPDATE SET total = total + excluded.total`,
    });
    // SQLite: the page's ids, then their rows with their isDuplicate; MySQL: one join for the rows,
    // which saves a round trip there, then D28 for the page in a statement of its own.
    this.pageOf = dialect.pick({
      sqlite: (query: LeadListQuery) => this.pageInTwoSteps(query),
      mysql: (query: LeadListQuery) => this.pageJoined(query),
    });
  }

  /** The vendor's lead with its isDuplicate (D28), in one statement. */
  async viewForVendor(leadId: number, vendorId: number): Promise<LeadView | null> {
    const [row] = await this.query(this.viewByIdSql, [leadId, vendorId]);
    return row ? toView(row) : null;
  }

  /** One page of a partner's leads with their isDuplicate, and how many match in all (docs/api.md 6). */
  async listForPartner(query: LeadListQuery): Promise<{ leads: LeadView[]; totalItems: number }> {
    const totalItems = await this.countMatching(query);
    if (totalItems === 0 || query.page * query.perPage >= totalItems) return { leads: [], totalItems };
    return { leads: await this.pageOf(query), totalItems };
  }

  /** D28 for a set of the vendor's leads, in one statement: the ids among them that are duplicates. */
  async duplicatesAmong(vendorId: number, leadIds: number[]): Promise<Set<number>> {
    if (leadIds.length === 0) return new Set();
    // `vendor_id + 0` keeps SQLite from walking the vendor's whole email index (it is covering, so
    // the planner likes it) instead of looking the ids up by primary key.
    const sql = (this.duplicatesSql[leadIds.length] ??= `SELECT l.id AS id FROM leads l
      WHERE l.vendor_id + 0 = ? AND l.id IN (${placeholders(leadIds.length)})
        AND ${this.isDuplicateSql()}`);
    const rows = await this.query(sql, [vendorId, ...leadIds]);
    return new Set(rows.map((row) => Number(row.id)));
  }

  /**
   * The ids of the partner's leads with these normalized emails, from ux_leads_partner_email: the
   * bulk import asks it of every batch, once before inserting and once for the new ids.
   */
  async idsByEmail(
    vendorId: number,
    partnerId: number,
    emails: readonly string[],
  ): Promise<{ id: number; emailNormalized: string }[]> {
    if (emails.length === 0) return [];
    const rows = await this.query(
      `SELECT id, email_normalized AS emailNormalized FROM leads
        WHERE vendor_id = ? AND partner_id = ? AND email_normalized IN (${placeholders(emails.length)})`,
      [vendorId, partnerId, ...emails],
    );
    return rows.map((row) => ({ id: Number(row.id), emailNormalized: String(row.emailNormalized) }));
  }

  /**
   * Adds `delta` to one slot of a lead_counts bucket, creating the row at its first lead: an upsert
   * whose update adds to the stored total, which TypeORM's `orUpdate` (it only overwrites) cannot
   * write. One statement, so concurrent writers of a slot on MySQL queue on its row lock rather than
   * deadlock as a separate INSERT IGNORE then UPDATE would.
   */
  async addToCount(
    vendorId: number,
    partnerId: number,
    bucket: { archived: boolean; approvalStatus: string },
    slot: number,
    delta: number,
  ): Promise<void> {
    await this.query(this.countUpsertSql, [
      vendorId,
      partnerId,
      Number(bucket.archived),
      bucket.approvalStatus,
      slot,
      delta,
    ]);
  }

  /**
   * For the bulk import, on SQLite: the WAL is copied into the database file every 1,000 pages by
   * default, at the import's rate several times a second, each time copying the same index pages
   * again; every 10,000 pages (about 40 MB of WAL) made the inserts a third cheaper. The setting is
   * the connection's, and the connection is the CLI process's own. Nothing on MySQL.
   */
  async checkpointLessOften(): Promise<void> {
    const sql = this.dialect.pick<string | null>({
      sqlite: 'PRAGMA wal_autocheckpoint = 10000',
      mysql: null,
    });
    if (sql !== null) await this.query(sql, []);
  }

  /**
   * D28 for the lead `l`: another active lead, or another lead's contact, of the vendor has its
   * email. On MySQL the other leads are read by `ix_leads_vendor_email` by force: for the
   * server-side prepared statements the service once ran, MariaDB sometimes chose
   * `ix_leads_partner_id` (whose first column is also vendor_id) for this subquery, reading every
   * lead of the vendor, row by row, for each lead of a page: a page of 20 of 3,000 leads then took
   * about half a second instead of a few milliseconds (docs/leads-indexes.md).
   */
  private isDuplicateSql(): string {
    const forceIndex = this.dialect.pick({ sqlite: '', mysql: ' FORCE INDEX (ix_leads_vendor_email)' });
    return `(EXISTS (SELECT 1 FROM leads o${forceIndex}
                 WHERE o.vendor_id = l.vendor_id AND o.email_normalized = l.email_normalized
                   AND o.archived = 0 AND o.id <> l.id)
      OR ${otherContactHasEmailSql('l')})`;
  }

  /**
   * SQLite: the page's ids from the covering index, then their rows by primary key with their
   * isDuplicate (D28), put in the ids' order here. Two statements cost less than one join that sorts
   * the wide rows again, and D28 read with the rows costs less than a statement of its own that
   * looks the ids up again (docs/performance.md).
   */
  private async pageInTwoSteps(query: LeadListQuery): Promise<LeadView[]> {
    const [idsSql, params] = this.pageIdsQuery(query);
    const ids = (await this.query(idsSql, params)).map((row) => Number(row.id));
    if (ids.length === 0) return [];
    const sql = (this.viewsByIdsSql[ids.length] ??=
      `SELECT ${LEAD_COLUMNS}, ${this.isDuplicateSql()} AS isDuplicate
      FROM leads l WHERE l.id IN (${placeholders(ids.length)})`);
    const rows = await this.query(sql, ids);
    const position = new Map(ids.map((id, index) => [id, index]));
    rows.sort((a, b) => position.get(Number(a.id))! - position.get(Number(b.id))!);
    return rows.map(toView);
  }

  /**
   * MySQL: the page's ids are found on the index alone (a deep OFFSET walks index entries, not
   * rows), then only those rows are read, in one statement; then D28 for the page.
   * docs/leads-indexes.md shows its plans.
   */
  private async pageJoined(query: LeadListQuery): Promise<LeadView[]> {
    const [idsSql, params] = this.pageIdsQuery(query);
    const rows = await this.query(
      `SELECT ${LEAD_COLUMNS} FROM (${idsSql}) page JOIN leads l ON l.id = page.id ORDER BY ${order(query, 'l')}`,
      params,
    );
    if (rows.length === 0) return [];
    const leads = rows.map((row) => LeadMapper.toDomain(toEntity(row)));
    const duplicates = await this.duplicatesAmong(
      query.vendorId,
      leads.map((lead) => lead.id!),
    );
    return leads.map((lead) => ({ lead, isDuplicate: duplicates.has(lead.id!) }));
  }

  /**
   * Without row filters the maintained counts answer at once, whatever the partner's size; with
   * them, COUNT(*) walks the index range of the filter (docs/leads-indexes.md).
   */
  private async countMatching(query: LeadListQuery): Promise<number> {
    const { from, where, params, rowFilters } = this.filtered(query, 'f');
    const [counted] = rowFilters
      ? await this.query(`SELECT COUNT(*) AS total FROM ${from} WHERE ${where}`, params)
      : await this.query(
          `SELECT SUM(total) AS total FROM lead_counts
            WHERE vendor_id = ? AND partner_id = ? AND archived = ?${query.approvalStatus ? ' AND approval_status = ?' : ''}`,
          params,
        );
    return Number(counted?.total ?? 0);
  }

  /** The ids of one page, in order, read from the listing's index alone (or the keyword's ranges). */
  private pageIdsQuery(query: LeadListQuery): [string, Param[]] {
    const { from, where, params } = this.filtered(query, 'f');
    return [
      `SELECT f.id AS id FROM ${from} WHERE ${where} ORDER BY ${order(query, 'f')} LIMIT ? OFFSET ?`,
      [...params, query.perPage, query.page * query.perPage],
    ];
  }

  /**
   * The FROM and WHERE every listing query shares (the page and its COUNT), with their parameters
   * in that order. `rowFilters`: whether it filters on more than the (archived, approvalStatus)
   * bucket that lead_counts keeps.
   */
  private filtered(
    query: LeadListQuery,
    alias: string,
  ): { from: string; where: string; params: Param[]; rowFilters: boolean } {
    const a = alias;
    const bucket: Param[] = [query.vendorId, query.partnerId, Number(query.archived)];
    const clauses = [`${a}.vendor_id = ?`, `${a}.partner_id = ?`, `${a}.archived = ?`];
    const params: Param[] = [...bucket];
    if (query.approvalStatus) {
      clauses.push(`${a}.approval_status = ?`);
      params.push(query.approvalStatus);
    }
    const bucketClauses = clauses.length;
    if (query.statuses.length > 0) {
      clauses.push(`${a}.status IN (${placeholders(query.statuses.length)})`);
      params.push(...query.statuses);
    }
    if (query.sources.length > 0) {
      clauses.push(`${a}.source IN (${placeholders(query.sources.length)})`);
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
      const ids = keywordIds(query.keyword, bucket);
      from = `(${ids.sql}) m ${this.dialect.orderedJoin} leads ${a} ON ${a}.id = m.id`;
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
      params.push(this.dialect.dateTime(query.createdFrom));
    }
    if (query.createdUntil && query.createdUntil <= LATEST_STORABLE) {
      clauses.push(`${a}.created_at < ?`);
      params.push(this.dialect.dateTime(query.createdUntil));
    }
    return { from, where: clauses.join(' AND '), params, rowFilters: clauses.length > bucketClauses };
  }

  private query(sql: string, params: Param[]): Promise<Record<string, unknown>[]> {
    return this.txHost.tx.query(sql, params);
  }
}

/** docs/api.md 6, D33: the sort, ties broken by id in the same direction. */
function order(query: LeadListQuery, alias: string): string {
  const direction = query.sortDirection === 'asc' ? 'ASC' : 'DESC';
  return `${alias}.${SORT_COLUMNS[query.sortBy]} ${direction}, ${alias}.id ${direction}`;
}

/**
 * The ids of the bucket's leads whose first name or email starts with the keyword: two ranges, of
 * `ix_leads_partner_first_name` and `ux_leads_partner_email`, unioned, each written as
 * `>= from AND < to` (prefix-range.ts; docs/leads-indexes.md).
 */
function keywordIds(keyword: string, bucket: Param[]): { sql: string; params: Param[] } {
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

/**
 * A row of LEAD_COLUMNS as LeadOrmEntity: the query returns DATETIMEs as UTC text on SQLite and
 * `archived` as 0 or 1 on both engines; the other columns are already the entity's values.
 */
function toEntity(row: Record<string, unknown>): LeadOrmEntity {
  const entity = row as unknown as LeadOrmEntity;
  entity.archived = Boolean(Number(row.archived));
  entity.lastActiveAt = nullableDateFromRow(row.lastActiveAt);
  entity.createdAt = dateFromRow(row.createdAt);
  entity.updatedAt = dateFromRow(row.updatedAt);
  return entity;
}

/** A row of LEAD_COLUMNS followed by `isDuplicate`. */
function toView(row: Record<string, unknown>): LeadView {
  return { lead: LeadMapper.toDomain(toEntity(row)), isDuplicate: Boolean(Number(row.isDuplicate)) };
}
