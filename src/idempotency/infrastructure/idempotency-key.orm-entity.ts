import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  CharColumn,
  DateTimeColumn,
  IdColumn,
  KeyColumn,
  MediumTextColumn,
} from '../../shared/infrastructure/database/columns';

/**
 * The idempotency_keys table as migration 1763700000610 creates it (docs/idempotency.md;
 * docs/architecture.md, "Schema: migrations and entities").
 */
@Entity('idempotency_keys')
@Index('ux_idempotency_keys_vendor_key', ['vendorId', 'idempotencyKey'], { unique: true })
@Index('ix_idempotency_keys_expires', ['expiresAt'])
export class IdempotencyKeyOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_idempotency_keys_vendor' })
  vendorId!: number;
  @KeyColumn('idempotency_key') idempotencyKey!: string;
  @CharColumn('fingerprint', 64) fingerprint!: string;
  @CharColumn('claim_token', 36) claimToken!: string;
  @Column({ type: 'varchar', length: 16 }) state!: string;
  @DateTimeColumn({ name: 'lease_until', nullable: true }) leaseUntil!: Date | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'expires_at' }) expiresAt!: Date;
  @Column({ name: 'response_status', type: 'int', nullable: true }) responseStatus!: number | null;
  @MediumTextColumn({ name: 'response_body', nullable: true }) responseBody!: string | null;
}
