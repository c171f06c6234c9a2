import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BigIntColumn, DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

/**
 * The lead_history table as migration 1763700000710 creates it (X12, docs/lead-history.md), written
 * and read through TypeORM by TypeOrmLeadHistory.
 */
@Entity('lead_history')
@Index('ix_lead_history_lead', ['leadId'])
export class LeadHistoryOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'lead_id' })
  @ForeignKey('leads', { name: 'fk_lead_history_lead' })
  leadId!: number;
  @DateTimeColumn() at!: Date;
  @Column({ type: 'varchar', length: 16 }) action!: string;
  @Column({ name: 'approval_status_from', type: 'varchar', length: 16, nullable: true })
  approvalStatusFrom!: string | null;
  @Column({ name: 'approval_status_to', type: 'varchar', length: 16 }) approvalStatusTo!: string;
  @Column({ type: 'boolean' }) archived!: boolean;
  @Column({ type: 'text', nullable: true }) comment!: string | null;
  @Column({ name: 'changed_fields', type: 'varchar', length: 512 }) changedFields!: string;
  @Column({ name: 'api_key_prefix', type: 'varchar', length: 16, nullable: true }) apiKeyPrefix!:
    string | null;
}
