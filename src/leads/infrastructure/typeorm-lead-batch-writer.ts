import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Repository } from 'typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-errors';
import { LeadBatchWriter } from '../application/lead-batch-writer';
import { Lead } from '../domain/lead';
import { COUNT_SLOTS, LeadBucket, LeadCounts, bucketOf } from './lead-counts';
import { LeadMapper } from './lead.mapper';
import { LeadOrmEntity } from './lead.orm-entity';
import { LeadQueries } from './leads.queries';
import { insertRows } from './multi-row-insert';

/** Emails per duplicate lookup, and rows per multi-row INSERT (31 placeholders each). */
const CHUNK = 500;

/**
 * The bulk import's writes (X13), in the caller's transaction, with the same rows as the lead
 * repository (LeadMapper) and the same maintained counts (LeadCounts), so an imported lead cannot
 * be told from one created over the API.
 *
 * - D27: the unique index ux_leads_partner_email decides; a refused row is a duplicate and the
 *   others are stored (a failed statement is undone alone on both engines, the transaction goes
 *   on), so a create over the API that races the import costs only that row.
 * - The emails already there are looked up first (one SELECT per 500), since a duplicate inside a
 *   multi-row INSERT undoes all 500 rows and sends them again one by one; then INSERTs of 500 rows
 *   (one round trip each on MySQL), the new ids read back by email from the unique index rather
 *   than computed from the first generated id: consecutive ids are not promised under MySQL's
 *   innodb_autoinc_lock_mode=2 with an auto_increment_increment other than 1 (Galera).
 */
@Injectable()
export class TypeOrmLeadBatchWriter extends LeadBatchWriter {
  private readonly counts: LeadCounts;
  private checkpointSet = false;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly queries: LeadQueries,
    private readonly dialect: DatabaseDialect,
  ) {
    super();
    this.counts = new LeadCounts(queries);
  }

  async write(vendorId: number, partnerId: number, leads: readonly Lead[]): Promise<(number | null)[]> {
    if (!this.checkpointSet) {
      await this.queries.checkpointLessOften();
      this.checkpointSet = true;
    }
    const ids: (number | null)[] = leads.map(() => null);
    const emails = leads.map((lead) => lead.emailNormalized);
    const taken = await this.existingEmails(vendorId, partnerId, emails);
    const fresh = leads.map((_, i) => i).filter((i) => !taken.has(emails[i]!));
    for (let start = 0; start < fresh.length; start += CHUNK) {
      const chunk = fresh.slice(start, start + CHUNK);
      await this.insertMany(vendorId, partnerId, leads, emails, chunk, ids);
    }
    await this.count(vendorId, partnerId, leads, ids);
    return ids;
  }

  private async existingEmails(vendorId: number, partnerId: number, all: string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (let start = 0; start < all.length; start += CHUNK) {
      const rows = await this.queries.idsByEmail(vendorId, partnerId, all.slice(start, start + CHUNK));
      for (const row of rows) taken.add(row.emailNormalized);
    }
    return taken;
  }

  /** The new lead's id, or null when the unique index refused it (D27). */
  private async insertOne(lead: Lead): Promise<number | null> {
    try {
      const result = await this.leads().insert(LeadMapper.toRow(lead));
      return Number(result.identifiers[0]!.id);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  private async insertMany(
    vendorId: number,
    partnerId: number,
    leads: readonly Lead[],
    emails: string[],
    chunk: number[],
    ids: (number | null)[],
  ): Promise<void> {
    try {
      await insertRows(
        this.txHost.tx,
        this.dialect,
        LeadOrmEntity,
        chunk.map((i) => LeadMapper.toRow(leads[i]!)),
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The statement was undone as a whole: row by row, so that only the duplicate is refused.
      for (const i of chunk) ids[i] = await this.insertOne(leads[i]!);
      return;
    }
    const rows = await this.queries.idsByEmail(
      vendorId,
      partnerId,
      chunk.map((i) => emails[i]!),
    );
    const idOf = new Map(rows.map((row) => [row.emailNormalized, row.id]));
    for (const i of chunk) ids[i] = idOf.get(emails[i]!) ?? null;
  }

  /** One upsert per counter row touched, in key order like every other writer of lead_counts. */
  private async count(
    vendorId: number,
    partnerId: number,
    leads: readonly Lead[],
    ids: (number | null)[],
  ): Promise<void> {
    const deltas = new Map<string, { bucket: LeadBucket; slot: number; delta: number }>();
    ids.forEach((id, i) => {
      if (id === null) return;
      const bucket = bucketOf(leads[i]!);
      const slot = id % COUNT_SLOTS;
      const key = `${Number(bucket.archived)}/${bucket.approvalStatus}/${String(slot).padStart(2, '0')}`;
      const entry = deltas.get(key) ?? { bucket, slot, delta: 0 };
      entry.delta += 1;
      deltas.set(key, entry);
    });
    for (const key of [...deltas.keys()].sort()) {
      const { bucket, slot, delta } = deltas.get(key)!;
      await this.counts.add(vendorId, partnerId, bucket, slot, delta);
    }
  }

  private leads(): Repository<LeadOrmEntity> {
    return this.txHost.tx.getRepository(LeadOrmEntity);
  }
}
