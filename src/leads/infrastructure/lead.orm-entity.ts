import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  DateTimeColumn,
  IdColumn,
  KeyColumn,
} from '../../shared/infrastructure/database/columns';

const text = (name: string) => Column({ name, type: 'varchar', length: 255 });
const nullableText = (name: string) => Column({ name, type: 'varchar', length: 255, nullable: true });
const longText = (name: string) => Column({ name, type: 'text', nullable: true });

/**
 * Leads as migrations 1763700000400 and 1763700000420 create them (docs/architecture.md, "Schema:
 * migrations and entities"); which index serves which query: docs/leads-indexes.md. D27: a lead
 * belongs to a (vendor, partner) connection, and one email per connection.
 */
@Entity('leads')
@ForeignKey('vendor_partners', ['vendorId', 'partnerId'], ['vendorId', 'partnerId'], {
  name: 'fk_leads_vendor_partner',
})
@Index('ux_leads_partner_email', ['vendorId', 'partnerId', 'emailNormalized'], { unique: true })
@Index('ix_leads_partner_created', ['vendorId', 'partnerId', 'archived', 'createdAt', 'id'])
@Index('ix_leads_partner_updated', ['vendorId', 'partnerId', 'archived', 'updatedAt', 'id'])
@Index('ix_leads_partner_id', ['vendorId', 'partnerId', 'archived', 'id'])
@Index('ix_leads_partner_first_name', ['vendorId', 'partnerId', 'archived', 'firstNameNormalized'])
@Index('ix_leads_vendor_email', ['vendorId', 'emailNormalized', 'archived'])
@Index('ix_leads_partner_approval', [
  'vendorId',
  'partnerId',
  'archived',
  'approvalStatus',
  'createdAt',
  'id',
])
@Index('ix_leads_partner_status', ['vendorId', 'partnerId', 'archived', 'status', 'createdAt', 'id'])
@Index('ix_leads_partner_source', ['vendorId', 'partnerId', 'archived', 'source', 'createdAt', 'id'])
export class LeadOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' }) vendorId!: number;
  @BigIntColumn({ name: 'partner_id' }) partnerId!: number;
  @text('first_name') firstName!: string;
  @KeyColumn('first_name_normalized') firstNameNormalized!: string;
  @nullableText('last_name') lastName!: string | null;
  @text('email_address') emailAddress!: string;
  @KeyColumn('email_normalized') emailNormalized!: string;
  @nullableText('phone_number') phoneNumber!: string | null;
  @nullableText('linked_in_url') linkedInUrl!: string | null;
  @text('company_name') companyName!: string;
  @nullableText('website_url') websiteUrl!: string | null;
  @nullableText('company_size') companySize!: string | null;
  @nullableText('industry') industry!: string | null;
  @nullableText('job_title') jobTitle!: string | null;
  @nullableText('city') city!: string | null;
  @nullableText('state') state!: string | null;
  @nullableText('country') country!: string | null;
  @BigIntColumn({ name: 'source', nullable: true }) source!: number | null;
  @BigIntColumn({ name: 'status', nullable: true }) status!: number | null;
  @Column({ name: 'lead_age', type: 'int', nullable: true }) leadAge!: number | null;
  @longText('products_interested') productsInterested!: string | null;
  @longText('business_impact_metrics') businessImpactMetrics!: string | null;
  @nullableText('external_id') externalId!: string | null;
  @Column({ name: 'approval_status', type: 'varchar', length: 16 }) approvalStatus!: string;
  @Column({ name: 'archived', type: 'boolean' }) archived!: boolean;
  @nullableText('reject_reason') rejectReason!: string | null;
  @longText('reject_comment') rejectComment!: string | null;
  @DateTimeColumn({ name: 'last_active_at', nullable: true }) lastActiveAt!: Date | null;
  @Column({ name: 'submitted_by_type', type: 'varchar', length: 16, nullable: true }) submittedByType!:
    string | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'updated_at' }) updatedAt!: Date;
}
