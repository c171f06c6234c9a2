import { Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  CharColumn,
  DateTimeColumn,
  IdColumn,
} from '../../shared/infrastructure/database/columns';

/** D36: one row per invite email; only the token's SHA-256 hash is stored. */
@Entity('invitations')
@Index('ux_invitations_token_hash', ['tokenHash'], { unique: true })
@Index('ix_invitations_user_vendor', ['userId', 'vendorId'])
export class InvitationOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'user_id' })
  @ForeignKey('partner_users', { name: 'fk_invitations_user' })
  userId!: number;
  @BigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_invitations_vendor' })
  vendorId!: number;
  @CharColumn('token_hash', 64) tokenHash!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'used_at', nullable: true }) usedAt!: Date | null;
}
