import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  CharColumn,
  DateTimeColumn,
  IdColumn,
} from '../../shared/infrastructure/database/columns';

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
