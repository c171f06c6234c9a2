import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, MediumTextColumn } from '../../shared/infrastructure/database/columns';

export type OutboxStatus = 'PENDING' | 'SENT' | 'FAILED';

/** The mail outbox (D35) as migration 1763700000300 creates it. */
@Entity('mail_outbox')
@Index('ix_mail_outbox_due', ['status', 'nextAttemptAt'])
@Index('ix_mail_outbox_lease', ['leaseToken'])
export class OutboxOrmEntity {
  @IdColumn() id!: number;
  @Column({ type: 'varchar', length: 255 }) recipient!: string;
  @Column({ type: 'text' }) subject!: string;
  // An HTML body with escaped 255-character names may pass the 64 KiB of a MySQL TEXT.
  @MediumTextColumn({ name: 'text_body', nullable: true }) textBody!: string | null;
  @MediumTextColumn({ name: 'html_body', nullable: true }) htmlBody!: string | null;
  @Column({ type: 'varchar', length: 16 }) status!: OutboxStatus;
  @Column({ type: 'int' }) attempts!: number;
  @DateTimeColumn({ name: 'next_attempt_at' }) nextAttemptAt!: Date;
  @DateTimeColumn({ name: 'locked_until', nullable: true }) lockedUntil!: Date | null;
  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true }) leaseToken!: string | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
  @DateTimeColumn({ name: 'sent_at', nullable: true }) sentAt!: Date | null;
  @DateTimeColumn({ name: 'failed_at', nullable: true }) failedAt!: Date | null;
}
