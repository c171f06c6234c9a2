import type { MigrationInterface } from 'typeorm';

/** Migrations of the leads module, oldest first. */
export const leadsMigrations: (new () => MigrationInterface)[] = [];
