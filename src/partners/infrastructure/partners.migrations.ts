import type { MigrationInterface } from 'typeorm';
import { Partners1763700000100 } from './1763700000100-partners';

/** Migrations of the partners module, oldest first. */
export const partnersMigrations: (new () => MigrationInterface)[] = [Partners1763700000100];
