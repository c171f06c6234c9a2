import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUniqueViolation, sqliteDateTime } from '../../shared/infrastructure/database/database-engine';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import { SqlDatabase, SqlValue } from '../../shared/infrastructure/database/sql-database';
import { LeadBatchWriter } from '../application/lead-batch-writer';
import { Lead } from '../domain/lead';
import { COUNT_SLOTS, LeadCounts, bucketOf } from './lead-counts';
import { LeadMapper } from './lead.mapper';
import { LeadOrmEntity } from './lead.orm-entity';

/** Emails per duplicate lookup, and rows per multi-row INSERT on MySQL (31 placeholders each). */
const CHUNK = 500;

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * The bulk import's writes (X13), in the caller's transaction, with the same INSERT as the lead
 * repository (EntitySql) and the same maintained counts (LeadCounts), so an imported lead cannot
 * be told from one created over the API.
 *
 * - D27: the unique index ux_leads_partner_email decides; a refused row is a duplicate and the
 *   others are stored (a failed statement is undone alone on both engines, the transaction goes
 *   on), so a create over the API that races the import costs only that row.
 * - SQLite: the prepared single-row INSERT in a loop; with no round trips it is as fast as a
 *   multi-row statement and gives each id exactly (lastInsertRowid). A duplicate costs one failed
 *   INSERT, no more than a lookup would, so there is none.
 * - MySQL: the emails already there are looked up first (one SELECT per 500), since a duplicate
 *   inside a multi-row INSERT undoes all 500 rows and sends them again one by one; then INSERTs of
 *   500 rows (one round trip each), the new ids read back by email from the unique index rather
 *   than computed from insertId: consecutive ids are not promised under innodb_autoinc_lock_mode=2
 *   with an auto_increment_increment other than 1 (Galera).
 */
@Injectable()
export class TypeOrmLeadBatchWriter extends LeadBatchWriter {
  private readonly sql: EntitySql<LeadOrmEntity>;
  private readonly counts: LeadCounts;
  /** the `(?, ?, ...)` of one row, repeated for a multi-row INSERT */
  private readonly rowGroup: string;
  private checkpointSet = false;
  private lastDate = { time: NaN, text: '' };

  constructor(
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.sql = new EntitySql(dataSource, LeadOrmEntity, 'l');
    this.counts = new LeadCounts(db);
    this.rowGroup = this.sql.insert.slice(this.sql.insert.indexOf(' VALUES ') + ' VALUES '.length);
  }

  async write(vendorId: number, partnerId: number, leads: readonly Lead[]): Promise<(number | null)[]> {
    const ids: (number | null)[] = leads.map(() => null);
    if (this.db.engine === 'mysql') {
      const emails = leads.map((lead) => lead.emailNormalized);
      const taken = await this.existingEmails(vendorId, partnerId, emails);
      const fresh = leads.map((_, i) => i).filter((i) => !taken.has(emails[i]!));
      for (let start = 0; start < fresh.length; start += CHUNK) {
        const chunk = fresh.slice(start, start + CHUNK);
        await this.insertMany(vendorId, partnerId, leads, emails, chunk, ids);
      }
    } else {
      await this.checkpointLess();
      for (let i = 0; i < leads.length; i++) ids[i] = await this.insertOne(leads[i]!);
    }
    await this.count(vendorId, partnerId, leads, ids);
    return ids;
  }

  /**
   * SQLite copies the WAL into the database file every 1,000 pages by default; at the import's rate
   * that is several times a second, each time copying the same index pages again. Every 10,000
   * pages (about 40 MB of WAL) made the inserts a third cheaper. The setting is the connection's,
   * and the connection is the CLI process's own.
   */
  private async checkpointLess(): Promise<void> {
    if (this.checkpointSet) return;
    await this.db.all('PRAGMA wal_autocheckpoint = 10000');
    this.checkpointSet = true;
  }

  private async existingEmails(vendorId: number, partnerId: number, all: string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (let start = 0; start < all.length; start += CHUNK) {
      const emails = all.slice(start, start + CHUNK);
      const rows = await this.db.rows(
        `SELECT email_normalized FROM leads
          WHERE vendor_id = ? AND partner_id = ? AND email_normalized IN (${placeholders(emails.length)})`,
        [vendorId, partnerId, ...emails],
      );
      for (const [email] of rows) taken.add(email as string);
    }
    return taken;
  }

  /** The new lead's id, or null when the unique index refused it (D27). */
  private async insertOne(lead: Lead): Promise<number | null> {
    try {
      return (await this.db.run(this.sql.insert, this.valuesOf(lead))).insertId;
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
    const values: SqlValue[] = [];
    for (const i of chunk) values.push(...this.valuesOf(leads[i]!));
    try {
      await this.db.run(`${this.sql.insert}${`, ${this.rowGroup}`.repeat(chunk.length - 1)}`, values);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The statement was undone as a whole: row by row, so that only the duplicate is refused.
      for (const i of chunk) ids[i] = await this.insertOne(leads[i]!);
      return;
    }
    const inserted = chunk.map((i) => emails[i]!);
    const rows = await this.db.rows(
      `SELECT email_normalized, id FROM leads
        WHERE vendor_id = ? AND partner_id = ? AND email_normalized IN (${placeholders(inserted.length)})`,
      [vendorId, partnerId, ...inserted],
    );
    const idOf = new Map(rows.map(([email, id]) => [email as string, Number(id)]));
    for (const i of chunk) ids[i] = idOf.get(emails[i]!) ?? null;
  }

  /**
   * The repository's row of the lead. On SQLite the DATETIMEs are turned into their stored text
   * here, once per millisecond rather than twice per row: the rows of a batch are made within a
   * few milliseconds of each other, and toISOString was a twentieth of the import's time.
   */
  private valuesOf(lead: Lead): SqlValue[] {
    const values = this.sql.values(LeadMapper.toRow(lead));
    if (this.db.engine !== 'sqlite') return values;
    for (let k = 0; k < values.length; k++) {
      const value = values[k];
      if (value instanceof Date) values[k] = this.sqliteText(value);
    }
    return values;
  }

  private sqliteText(date: Date): string {
    const time = date.getTime();
    if (time !== this.lastDate.time) this.lastDate = { time, text: sqliteDateTime(date) };
    return this.lastDate.text;
  }

  /** One upsert per counter row touched, in key order like every other writer of lead_counts. */
  private async count(
    vendorId: number,
    partnerId: number,
    leads: readonly Lead[],
    ids: (number | null)[],
  ): Promise<void> {
    const deltas = new Map<string, { bucket: ReturnType<typeof bucketOf>; slot: number; delta: number }>();
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
}
