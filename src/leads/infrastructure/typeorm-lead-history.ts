import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Repository } from 'typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
import { LeadHistory } from '../application/lead-history';
import type { LeadDetails } from '../domain/lead-details';
import type { LeadHistoryAction, LeadHistoryEntry } from '../domain/lead-history';
import type { ApprovalStatus } from '../domain/lead-transitions';
import { LeadHistoryOrmEntity } from './lead-history.orm-entity';
import { insertRows } from './multi-row-insert';

/** Rows per multi-row INSERT (9 placeholders each), as the bulk import's lead INSERTs. */
const CHUNK = 500;

/**
 * The lead history (X12) through TypeORM, in the caller's transaction. One entry is one row;
 * `changed_fields` is the field names joined by commas. Many entries (the bulk import's batch of
 * 2,000 CREATED entries) go in INSERTs of 500 rows: one round trip each on MySQL, and on SQLite
 * cheaper per row than one INSERT per entry.
 */
@Injectable()
export class TypeOrmLeadHistory extends LeadHistory {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
  ) {
    super();
  }

  async append(entries: readonly LeadHistoryEntry[]): Promise<void> {
    for (let start = 0; start < entries.length; start += CHUNK) {
      await insertRows(
        this.txHost.tx,
        this.dialect,
        LeadHistoryOrmEntity,
        entries.slice(start, start + CHUNK).map(toRow),
      );
    }
  }

  async listForLead(leadId: number): Promise<LeadHistoryEntry[]> {
    const rows = await this.history().find({ where: { leadId }, order: { id: 'ASC' } });
    return rows.map(toEntry);
  }

  private history(): Repository<LeadHistoryOrmEntity> {
    return this.txHost.tx.getRepository(LeadHistoryOrmEntity);
  }
}

function toRow(entry: LeadHistoryEntry): Omit<LeadHistoryOrmEntity, 'id'> {
  return {
    leadId: entry.leadId,
    at: entry.at,
    action: entry.action,
    approvalStatusFrom: entry.approvalStatusFrom,
    approvalStatusTo: entry.approvalStatusTo,
    archived: entry.archived,
    comment: entry.comment,
    changedFields: entry.changedFields.join(','),
    apiKeyPrefix: entry.apiKeyPrefix,
  };
}

function toEntry(row: LeadHistoryOrmEntity): LeadHistoryEntry {
  return {
    leadId: row.leadId,
    at: row.at,
    action: row.action as LeadHistoryAction,
    approvalStatusFrom: row.approvalStatusFrom as ApprovalStatus | null,
    approvalStatusTo: row.approvalStatusTo as ApprovalStatus,
    archived: row.archived,
    comment: row.comment,
    changedFields: row.changedFields ? (row.changedFields.split(',') as (keyof LeadDetails)[]) : [],
    apiKeyPrefix: row.apiKeyPrefix,
  };
}
