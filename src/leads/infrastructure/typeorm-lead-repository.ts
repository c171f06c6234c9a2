import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Not, Repository } from 'typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-errors';
import { LeadRepository } from '../application/lead-repository';
import type { LeadView } from '../application/lead-views';
import { Lead } from '../domain/lead';
import { leadEmailTaken } from '../domain/lead-email-taken';
import { LeadListQuery } from '../domain/lead-list-query';
import { LeadBucket, LeadCounts, bucketOf } from './lead-counts';
import { LeadMapper } from './lead.mapper';
import { LeadOrmEntity } from './lead.orm-entity';
import { LeadQueries } from './leads.queries';

/**
 * Leads through TypeORM in the caller's transaction (`txHost.tx`); the reads of the hot paths are
 * LeadQueries' hand-written SQL. Every write keeps lead_counts in step (LeadCounts).
 */
@Injectable()
export class TypeOrmLeadRepository extends LeadRepository {
  private readonly counts: LeadCounts;
  /**
   * The row as stored of each lead this repository inserted or locked, so that an update writes
   * only the columns that changed and knows which count bucket the lead leaves. SQLite rewrites the
   * entry of every index that has a column the SET names, whether its value changed or not: a full
   * UPDATE of a lead rewrote nine index entries where an approval changes two. Leads that are only
   * read (findForVendor, views, listings) are not remembered: they are never written back.
   */
  private readonly storedRows = new WeakMap<Lead, LeadOrmEntity>();

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
    private readonly queries: LeadQueries,
  ) {
    super();
    this.counts = new LeadCounts(queries);
  }

  async insert(lead: Lead): Promise<void> {
    const row = LeadMapper.toRow(lead);
    try {
      const result = await this.leads().insert(row);
      lead.identify(Number(result.identifiers[0]!.id));
    } catch (error) {
      throw translate(error);
    }
    row.id = lead.id!;
    await this.counts.added(lead);
    this.storedRows.set(lead, row);
  }

  async update(lead: Lead): Promise<void> {
    const before = this.storedRows.get(lead);
    if (!before) throw new Error(`lead ${lead.id} was not inserted or locked by this repository`);
    const row = LeadMapper.toRow(lead);
    const changed = changedColumns(row, before);
    if (changed) {
      try {
        await this.leads().update({ id: lead.id! }, changed);
      } catch (error) {
        throw translate(error);
      }
    }
    await this.counts.moved(lead, bucketOfRow(before), bucketOf(lead));
    this.storedRows.set(lead, row);
  }

  async findForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const row = await this.leads().findOne({ where: { id: leadId, vendorId } });
    return row ? LeadMapper.toDomain(row) : null;
  }

  findViewForVendor(leadId: number, vendorId: number): Promise<LeadView | null> {
    return this.queries.viewForVendor(leadId, vendorId);
  }

  /**
   * D32: SELECT ... FOR UPDATE on MySQL. SQLite has no row locks: its write transaction already
   * excludes every other writer (DatabaseDialect.writeLock).
   */
  async lockForVendor(leadId: number, vendorId: number): Promise<Lead | null> {
    const row = await this.leads().findOne({
      where: { id: leadId, vendorId },
      lock: this.dialect.writeLock,
    });
    if (!row) return null;
    const lead = LeadMapper.toDomain(row);
    this.storedRows.set(lead, row);
    return lead;
  }

  emailTaken(
    vendorId: number,
    partnerId: number,
    emailNormalized: string,
    exceptLeadId?: number,
  ): Promise<boolean> {
    return this.leads().exists({
      where: { vendorId, partnerId, emailNormalized, id: Not(exceptLeadId ?? 0) },
    });
  }

  listForPartner(query: LeadListQuery): Promise<{ leads: LeadView[]; totalItems: number }> {
    return this.queries.listForPartner(query);
  }

  duplicatesAmong(vendorId: number, leadIds: number[]): Promise<Set<number>> {
    return this.queries.duplicatesAmong(vendorId, leadIds);
  }

  private leads(): Repository<LeadOrmEntity> {
    return this.txHost.tx.getRepository(LeadOrmEntity);
  }
}

/**
 * The columns whose value in `row` differs from `before` (the row as read or last written), or
 * null when none does. A Date counts as unchanged at the same millisecond.
 */
function changedColumns(row: LeadOrmEntity, before: LeadOrmEntity): Partial<LeadOrmEntity> | null {
  const changed: Record<string, unknown> = {};
  let any = false;
  for (const key of Object.keys(row) as (keyof LeadOrmEntity)[]) {
    if (key === 'id') continue;
    const value = row[key];
    const stored = before[key];
    const same =
      value instanceof Date && stored instanceof Date
        ? value.getTime() === stored.getTime()
        : value === stored;
    if (same) continue;
    changed[key] = value;
    any = true;
  }
  return any ? (changed as Partial<LeadOrmEntity>) : null;
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
