import { Column, Entity, ForeignKey, Index } from 'typeorm';
import {
  BigIntColumn,
  DateTimeColumn,
  IdColumn,
  KeyColumn,
} from '../../shared/infrastructure/database/columns';

/**
 * D13: one email across all users, case-insensitively: the unique index is on the lower-cased copy.
 * D24: the names sort by their lower-cased copies (`foldCase`), compared byte for byte on both engines.
 */
@Entity('partner_users')
@Index('ux_partner_users_email', ['emailNormalized'], { unique: true })
@Index('ix_partner_users_partner', ['partnerId', 'id'])
export class PartnerUserOrmEntity {
  @IdColumn() id!: number;
  @BigIntColumn({ name: 'partner_id' })
  @ForeignKey('partners', { name: 'fk_partner_users_partner' })
  partnerId!: number;
  @Column({ name: 'first_name', type: 'varchar', length: 255 }) firstName!: string;
  @KeyColumn('first_name_normalized') firstNameNormalized!: string;
  @Column({ name: 'last_name', type: 'varchar', length: 255, nullable: true }) lastName!: string | null;
  @KeyColumn('last_name_normalized', { nullable: true }) lastNameNormalized!: string | null;
  @Column({ name: 'email_address', type: 'varchar', length: 255 }) emailAddress!: string;
  @KeyColumn('email_normalized') emailNormalized!: string;
  @Column({ name: 'phone_number', type: 'varchar', length: 255, nullable: true }) phoneNumber!: string | null;
  @Column({ name: 'job_title', type: 'varchar', length: 255, nullable: true }) jobTitle!: string | null;
  @KeyColumn('job_title_normalized', { nullable: true }) jobTitleNormalized!: string | null;
  @DateTimeColumn({ name: 'last_active_at', nullable: true }) lastActiveAt!: Date | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}
