import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  DateTimeColumn,
  IdColumn,
  KeyColumn,
} from '../../shared/infrastructure/database/columns';

/**
 * Contacts as migration 1763700000410 creates them (docs/architecture.md, "Schema: migrations and
 * entities"): one per lead (D32), and the contact half of isDuplicate (D28) from an index alone.
 */
@Entity('contacts')
@Index('ux_contacts_lead', ['leadId'], { unique: true })
@Index('ix_contacts_vendor_email', ['vendorId', 'emailNormalized', 'leadId'])
export class ContactOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'vendor_id' })
  @ForeignKey('vendors', { name: 'fk_contacts_vendor' })
  vendorId!: number;
  @BigIntColumn({ name: 'partner_id' }) partnerId!: number;
  @BigIntColumn({ name: 'lead_id' })
  @ForeignKey('leads', { name: 'fk_contacts_lead' })
  leadId!: number;
  @Column({ name: 'first_name', type: 'varchar', length: 255 }) firstName!: string;
  @Column({ name: 'last_name', type: 'varchar', length: 255, nullable: true }) lastName!: string | null;
  @Column({ name: 'email_address', type: 'varchar', length: 255 }) emailAddress!: string;
  @KeyColumn('email_normalized') emailNormalized!: string;
  @Column({ name: 'phone_number', type: 'varchar', length: 255, nullable: true }) phoneNumber!: string | null;
  @Column({ name: 'linked_in_url', type: 'varchar', length: 255, nullable: true }) linkedInUrl!:
    string | null;
  @Column({ name: 'job_title', type: 'varchar', length: 255, nullable: true }) jobTitle!: string | null;
  @Column({ name: 'company_name', type: 'varchar', length: 255 }) companyName!: string;
  @Column({ name: 'website_url', type: 'varchar', length: 255, nullable: true }) websiteUrl!: string | null;
  @Column({ name: 'company_size', type: 'varchar', length: 255, nullable: true }) companySize!: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) industry!: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) city!: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) state!: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) country!: string | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}
