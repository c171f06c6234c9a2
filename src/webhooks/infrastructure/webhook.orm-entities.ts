import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  CharColumn,
  DateTimeColumn,
  IdColumn,
  MediumTextColumn,
} from '../../shared/infrastructure/database/columns';

// The tables of migration 1763700000800 (X16-X19, docs/webhooks.md), with their indexes and
// foreign keys (docs/architecture.md, "Schema: migrations and entities").

@Entity('webhook_endpoints')
@Index('ix_webhook_endpoints_vendor', ['vendorId'])
export class WebhookEndpointOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_webhook_endpoints_vendor' })
  vendorId!: number;
  @Column({ type: 'varchar', length: 2048 }) url!: string;
  @Column({ type: 'varchar', length: 512 }) events!: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) description!: string | null;
  @Column({ type: 'varchar', length: 64 }) secret!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'disabled_at', nullable: true }) disabledAt!: Date | null;
}

@Entity('webhook_events')
@Index('ux_webhook_events_event_id', ['eventId'], { unique: true })
@Index('ix_webhook_events_vendor', ['vendorId'])
export class WebhookEventOrmEntity {
  @IdColumn() id!: number;
  @CharColumn('event_id', 36) eventId!: string;
  @BigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_webhook_events_vendor' })
  vendorId!: number;
  @Column({ type: 'varchar', length: 32 }) type!: string;
  @MediumTextColumn() payload!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}

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
