import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { BigIntColumn, DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

@Entity('lead_options')
@Index('ix_lead_options_vendor_kind', ['vendorId', 'kind'])
export class LeadOptionOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_lead_options_vendor' })
  vendorId!: number;
  @Column({ type: 'varchar', length: 16 }) kind!: string;
  @Column({ type: 'varchar', length: 255 }) label!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}
