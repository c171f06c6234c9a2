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
/** Rows per multi-row INSERT on MySQL (9 placeholders each), as the bulk import's lead INSERTs. */
const CHUNK = 500;
const SELECT = `SELECT ${COLUMNS} FROM lead_history WHERE lead_id = ? ORDER BY id`;

/**
 * The lead history (X12) over SqlDatabase, in the caller's transaction. One entry is one row;
 * `changed_fields` is the field names joined by commas. Appending many (the bulk import's batch of
 * 2,000 CREATED entries) costs what the lead INSERTs of the batch cost, not a statement more per
 * row than needed: on SQLite a prepared single-row INSERT in a loop (no round trips), on MySQL
 * INSERTs of 500 rows.
 */
@Injectable()
export class TypeOrmLeadHistory extends LeadHistory {
  private readonly multiRow: string[] = [];
  private lastDate = { time: NaN, text: '' };

  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async append(entries: readonly LeadHistoryEntry[]): Promise<void> {
    if (this.db.engine === 'sqlite') {
      for (const entry of entries) await this.db.run(INSERT, this.valuesOf(entry));
      return;
    }
    for (let start = 0; start < entries.length; start += CHUNK) {
      const chunk = entries.slice(start, start + CHUNK);
      const values: SqlValue[] = [];
      for (const entry of chunk) values.push(...this.valuesOf(entry));
      await this.db.run(this.insertOf(chunk.length), values);
    }
  }

  async listForLead(leadId: number): Promise<LeadHistoryEntry[]> {
    const rows = await this.db.rows(SELECT, [leadId]);
    return rows.map(toEntry);
  }

  private insertOf(rows: number): string {
    return (this.multiRow[rows] ??= `${INSERT}${`, ${ROW}`.repeat(rows - 1)}`);
  }

  private valuesOf(entry: LeadHistoryEntry): SqlValue[] {
    return [
      entry.leadId,
      this.dateValue(entry.at),
      entry.action,
      entry.approvalStatusFrom,
      entry.approvalStatusTo,
      entry.archived,
      entry.comment,
      entry.changedFields.join(','),
      entry.apiKeyPrefix,
    ];
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
