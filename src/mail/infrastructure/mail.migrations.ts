import type { MigrationInterface } from 'typeorm';
import { MailOutbox1763700000300 } from './1763700000300-mail-outbox';

/** Migrations of the mail module, oldest first. */
export const mailMigrations: (new () => MigrationInterface)[] = [MailOutbox1763700000300];
