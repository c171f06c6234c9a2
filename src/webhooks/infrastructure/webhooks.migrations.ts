import type { MigrationInterface } from 'typeorm';
import { Webhooks1763700000800 } from './1763700000800-webhooks';

/** Migrations of the webhooks module, oldest first. */
export const webhooksMigrations: (new () => MigrationInterface)[] = [Webhooks1763700000800];
