import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BigIntColumn, DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

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
