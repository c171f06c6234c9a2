import { Column, Entity } from 'typeorm';
import { BigIntColumn, DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

@Entity('vendors')
export class VendorOrmEntity {
  @IdColumn() id!: number;
  @Column({ type: 'varchar', length: 255 }) name!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}

@Entity('api_keys')
export class ApiKeyOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' }) vendorId!: number;
  @Column({ name: 'key_hash', type: 'varchar', length: 64 }) keyHash!: string;
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 }) keyPrefix!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @DateTimeColumn({ name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
}

@Entity('lead_options')
export class LeadOptionOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' }) vendorId!: number;
  @Column({ type: 'varchar', length: 16 }) kind!: string;
  @Column({ type: 'varchar', length: 255 }) label!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}
