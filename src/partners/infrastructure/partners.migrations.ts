import type { MigrationInterface } from 'typeorm';

/** Migrations of the partners module, oldest first. */
export const partnersMigrations: (new () => MigrationInterface)[] = [];
