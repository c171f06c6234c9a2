import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  CharColumn,
  DateTimeColumn,
  IdColumn,
} from '../../shared/infrastructure/database/columns';

// Tables, indexes and foreign keys as migration 1763700000000 creates them (docs/architecture.md,
// "Schema: migrations and entities"). A foreign key names the table it refers to, as the SQL does.

@Entity('vendors')
export class VendorOrmEntity {
  @IdColumn() id!: number;
  @Column({ type: 'varchar', length: 255 }) name!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}

@Entity('api_keys')
@Index('ux_api_keys_key_hash', ['keyHash'], { unique: true })
@Index('ix_api_keys_vendor', ['vendorId'])
export class ApiKeyOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_api_keys_vendor' })
  vendorId!: number;
  @CharColumn('key_hash', 64) keyHash!: string;
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 }) keyPrefix!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @DateTimeColumn({ name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
}

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
