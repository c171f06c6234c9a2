import type { MigrationInterface } from 'typeorm';
import { IdempotencyKeys1763700000610 } from './1763700000610-idempotency-keys';

/** Migrations of the idempotency module, oldest first. */
export const idempotencyMigrations: (new () => MigrationInterface)[] = [IdempotencyKeys1763700000610];
