import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  CharColumn,
  DateTimeColumn,
  IdColumn,
  KeyColumn,
  PrimaryBigIntColumn,
} from '../../shared/infrastructure/database/columns';

// Tables, indexes and foreign keys as migrations 1763700000100, 1763700000110 and 1763700000700 create them
// (docs/architecture.md, "Schema: migrations and entities"). A foreign key names the table it
// refers to, as the SQL does.

@Entity('partners')
export class PartnerOrmEntity {
  @IdColumn() id!: number;
  @Column({ name: 'company_name', type: 'varchar', length: 255 }) companyName!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) website!: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) country!: string | null;
  @Column({ name: 'company_size', type: 'varchar', length: 255, nullable: true }) companySize!: string | null;
  @Column({ name: 'contact_name', type: 'varchar', length: 255 }) contactName!: string;
  @Column({ name: 'contact_email_address', type: 'varchar', length: 255 }) contactEmailAddress!: string;
  @Column({ name: 'contact_phone', type: 'varchar', length: 255, nullable: true }) contactPhone!:
    string | null;
  @Column({ name: 'contact_role', type: 'varchar', length: 255, nullable: true }) contactRole!: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) type!: string | null;
  @DateTimeColumn({ name: 'invited_at', nullable: true }) invitedAt!: Date | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}

/** D13: one email across all users, case-insensitively: the unique index is on the lower-cased copy. */
@Entity('partner_users')
@Index('ux_partner_users_email', ['emailNormalized'], { unique: true })
@Index('ix_partner_users_partner', ['partnerId', 'id'])
export class PartnerUserOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'partner_id' })
  @ForeignKey('partners', { name: 'fk_partner_users_partner' })
  partnerId!: number;
  @Column({ name: 'first_name', type: 'varchar', length: 255 }) firstName!: string;
  @Column({ name: 'last_name', type: 'varchar', length: 255, nullable: true }) lastName!: string | null;
  @Column({ name: 'email_address', type: 'varchar', length: 255 }) emailAddress!: string;
  @KeyColumn('email_normalized') emailNormalized!: string;
  @Column({ name: 'phone_number', type: 'varchar', length: 255, nullable: true }) phoneNumber!: string | null;
  @Column({ name: 'job_title', type: 'varchar', length: 255, nullable: true }) jobTitle!: string | null;
  @DateTimeColumn({ name: 'last_active_at', nullable: true }) lastActiveAt!: Date | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}

/**
 * D20: a partner may be connected to several vendors, once each. X9: the connection keeps copies of
 * what the vendor's partner listing sorts and searches by, so that each index of the listing starts
 * with the vendor (migration 1763700000700, docs/partners-indexes.md).
 */
@Entity('vendor_partners')
@Index('ix_vendor_partners_partner', ['partnerId'])
@Index('ix_vendor_partners_created', ['vendorId', 'partnerCreatedAt', 'partnerId'])
@Index('ix_vendor_partners_company', ['vendorId', 'companyNameNormalized', 'partnerId'])
@Index('ix_vendor_partners_email', ['vendorId', 'contactEmailNormalized', 'partnerId'])
@Index('ix_vendor_partners_type', ['vendorId', 'partnerType', 'partnerCreatedAt', 'partnerId'])
export class VendorPartnerOrmEntity {
  @PrimaryBigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_vendor_partners_vendor' })
  vendorId!: number;
  @PrimaryBigIntColumn({ name: 'partner_id' })
  @ForeignKey('partners', { name: 'fk_vendor_partners_partner' })
  partnerId!: number;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'partner_created_at' }) partnerCreatedAt!: Date;
  @KeyColumn('company_name_normalized') companyNameNormalized!: string;
  @KeyColumn('contact_email_normalized') contactEmailNormalized!: string;
  @Column({ name: 'partner_type', type: 'varchar', length: 16, nullable: true }) partnerType!: string | null;
}

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
