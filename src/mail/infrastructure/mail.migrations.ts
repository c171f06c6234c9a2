import type { MigrationInterface } from 'typeorm';

/** Migrations of the mail module, oldest first. */
export const mailMigrations: (new () => MigrationInterface)[] = [];
