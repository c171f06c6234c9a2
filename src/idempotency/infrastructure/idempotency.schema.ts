import type { DatabaseSchema } from '../../shared/infrastructure/database/database-schema';
import { IdempotencyKeys1763700000610 } from './1763700000610-idempotency-keys';
import { IdempotencyKeyOrmEntity } from './idempotency-key.orm-entity';

/** The idempotency module's table: idempotency_keys. */
export const idempotencySchema: DatabaseSchema = {
  entities: [IdempotencyKeyOrmEntity],
  migrations: [IdempotencyKeys1763700000610],
};
