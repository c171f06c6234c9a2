import { Injectable } from '@nestjs/common';
import { sqliteDateTime } from '../../shared/infrastructure/database/database-engine';
import { SqlDatabase, SqlValue, dateFromRow } from '../../shared/infrastructure/database/sql-database';
import { LeadHistory } from '../application/lead-history';
import type { LeadDetails } from '../domain/lead-details';
import type { LeadHistoryAction, LeadHistoryEntry } from '../domain/lead-history';
import type { ApprovalStatus } from '../domain/lead-transitions';

const COLUMNS =
  'lead_id, at, action, approval_status_from, approval_status_to, archived, comment, changed_fields, api_key_prefix';
const ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?)';
const INSERT = `INSERT INTO lead_history (${COLUMNS}) VALUES ${ROW}`;
/** Rows per multi-row INSERT (9 placeholders each), as the bulk import's lead INSERTs on MySQL. */
const CHUNK = 500;
const SELECT = `SELECT ${COLUMNS} FROM lead_history WHERE lead_id = ? ORDER BY id`;

/**
 * The lead history (X12) over SqlDatabase, in the caller's transaction. One entry is one row;
 * `changed_fields` is the field names joined by commas. Many entries (the bulk import's batch of
 * 2,000 CREATED entries) go in INSERTs of 500 rows on both engines: one round trip each on MySQL,
 * and on SQLite about half the time per row of a prepared single-row INSERT in a loop, which the
 * lead INSERTs need for their ids and these rows do not (measured with better-sqlite3).
 */
@Injectable()
export class TypeOrmLeadHistory extends LeadHistory {
  private readonly multiRow: string[] = [];
  private lastDate = { time: NaN, text: '' };

  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async append(entries: readonly LeadHistoryEntry[]): Promise<void> {
    for (let start = 0; start < entries.length; start += CHUNK) {
      const end = Math.min(entries.length, start + CHUNK);
      const values: SqlValue[] = [];
      for (let i = start; i < end; i++) this.pushValues(entries[i]!, values);
      await this.db.run(this.insertOf(end - start), values);
    }
  }

  async listForLead(leadId: number): Promise<LeadHistoryEntry[]> {
    const rows = await this.db.rows(SELECT, [leadId]);
    return rows.map(toEntry);
  }

  private insertOf(rows: number): string {
    return (this.multiRow[rows] ??= `${INSERT}${`, ${ROW}`.repeat(rows - 1)}`);
  }

  private pushValues(entry: LeadHistoryEntry, values: SqlValue[]): void {
    values.push(
      entry.leadId,
      this.dateValue(entry.at),
      entry.action,
      entry.approvalStatusFrom,
      entry.approvalStatusTo,
      entry.archived,
      entry.comment,
      entry.changedFields.length === 0 ? '' : entry.changedFields.join(','),
      entry.apiKeyPrefix,
    );
  }

  /**
   * On SQLite the DATETIME text is made here, once per millisecond: a batch of the bulk import has
   * 2,000 entries made within a few milliseconds (the same reasoning as TypeOrmLeadBatchWriter).
   */
  private dateValue(date: Date): SqlValue {
    if (this.db.engine !== 'sqlite') return date;
    const time = date.getTime();
    if (time !== this.lastDate.time) this.lastDate = { time, text: sqliteDateTime(date) };
    return this.lastDate.text;
  }
}

function toEntry(row: unknown[]): LeadHistoryEntry {
  const [leadId, at, action, from, to, archived, comment, changedFields, apiKeyPrefix] = row;
  return {
    leadId: Number(leadId),
    at: dateFromRow(at),
    action: action as LeadHistoryAction,
    approvalStatusFrom: (from ?? null) as ApprovalStatus | null,
    approvalStatusTo: to as ApprovalStatus,
    archived: Boolean(Number(archived)),
    comment: (comment ?? null) as string | null,
    changedFields: changedFields ? ((changedFields as string).split(',') as (keyof LeadDetails)[]) : [],
    apiKeyPrefix: (apiKeyPrefix ?? null) as string | null,
  };
}
