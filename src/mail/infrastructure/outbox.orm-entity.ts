import { Column, Entity } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

export type OutboxStatus = 'PENDING' | 'SENT' | 'FAILED';

@Entity('mail_outbox')
export class OutboxOrmEntity {
  @IdColumn() id!: number;
  @Column({ type: 'varchar', length: 255 }) recipient!: string;
  @Column({ type: 'text' }) subject!: string;
  @Column({ name: 'text_body', type: 'text', nullable: true }) textBody!: string | null;
  @Column({ name: 'html_body', type: 'text', nullable: true }) htmlBody!: string | null;
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
