import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  CharColumn,
  DateTimeColumn,
  IdColumn,
  MediumTextColumn,
} from '../../shared/infrastructure/database/columns';

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
