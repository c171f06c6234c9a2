import { Column, Entity, PrimaryColumn } from 'typeorm';
import {
  BigIntColumn,
  DateTimeColumn,
  IdColumn,
  bigintToNumber,
} from '../../shared/infrastructure/database/columns';

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

@Entity('partner_users')
export class PartnerUserOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'partner_id' }) partnerId!: number;
  @Column({ name: 'first_name', type: 'varchar', length: 255 }) firstName!: string;
  @Column({ name: 'last_name', type: 'varchar', length: 255, nullable: true }) lastName!: string | null;
  @Column({ name: 'email_address', type: 'varchar', length: 255 }) emailAddress!: string;
  @Column({ name: 'email_normalized', type: 'varchar', length: 255 }) emailNormalized!: string;
  @Column({ name: 'phone_number', type: 'varchar', length: 255, nullable: true }) phoneNumber!: string | null;
  @Column({ name: 'job_title', type: 'varchar', length: 255, nullable: true }) jobTitle!: string | null;
  @DateTimeColumn({ name: 'last_active_at', nullable: true }) lastActiveAt!: Date | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}

/** A vendor's connection to a partner (D20), with copies of what the vendor's listing sorts and searches by (X9). */
@Entity('vendor_partners')
export class VendorPartnerOrmEntity {
  @PrimaryColumn({ name: 'vendor_id', type: 'bigint', transformer: bigintToNumber }) vendorId!: number;
  @PrimaryColumn({ name: 'partner_id', type: 'bigint', transformer: bigintToNumber }) partnerId!: number;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'partner_created_at' }) partnerCreatedAt!: Date;
  @Column({ name: 'company_name_normalized', type: 'varchar', length: 255 }) companyNameNormalized!: string;
  @Column({ name: 'contact_email_normalized', type: 'varchar', length: 255 }) contactEmailNormalized!: string;
  @Column({ name: 'partner_type', type: 'varchar', length: 16, nullable: true }) partnerType!: string | null;
}

@Entity('invitations')
export class InvitationOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'user_id' }) userId!: number;
  @BigIntColumn({ name: 'vendor_id' }) vendorId!: number;
  @Column({ name: 'token_hash', type: 'varchar', length: 64 }) tokenHash!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'used_at', nullable: true }) usedAt!: Date | null;
}
