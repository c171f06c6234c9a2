import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { DateTimeColumn, KeyColumn, PrimaryBigIntColumn } from '../../shared/infrastructure/database/columns';

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
