import { Column, Entity } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

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
