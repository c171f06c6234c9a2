import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BigIntColumn, DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_due', ['status', 'nextAttemptAt'])
@Index('ix_webhook_deliveries_lease', ['leaseToken'])
@Index('ix_webhook_deliveries_endpoint', ['endpointId'])
@Index('ix_webhook_deliveries_event', ['eventRowId'])
export class WebhookDeliveryOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'endpoint_id' })
  @ForeignKey('webhook_endpoints', { name: 'fk_webhook_deliveries_endpoint' })
  endpointId!: number;
  @BigIntColumn({ name: 'event_id' })
  @ForeignKey('webhook_events', { name: 'fk_webhook_deliveries_event' })
  eventRowId!: number;
  @Column({ type: 'varchar', length: 16 }) status!: string;
  @Column({ type: 'int' }) attempts!: number;
  @DateTimeColumn({ name: 'next_attempt_at', nullable: true }) nextAttemptAt!: Date | null;
  @DateTimeColumn({ name: 'locked_until', nullable: true }) lockedUntil!: Date | null;
  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true }) leaseToken!: string | null;
  @Column({ name: 'last_response_status', type: 'int', nullable: true }) lastResponseStatus!: number | null;
  @DateTimeColumn({ name: 'last_attempt_at', nullable: true }) lastAttemptAt!: Date | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}
