import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { IdempotencyStore } from './application/idempotency-store';
import { IdempotencySettings } from './application/idempotency.settings';
import { IdempotencySweeper } from './application/idempotency-sweeper';
import { IdempotentRequests } from './application/idempotent-requests';
import { IdempotencyQueries } from './infrastructure/idempotency.queries';
import { TypeOrmIdempotencyStore } from './infrastructure/typeorm-idempotency-store';

/** A lease is this many database bounds, and at least a minute (docs/idempotency.md). */
const LEASE_IN_DATABASE_BOUNDS = 10;
const MIN_LEASE_MS = 60_000;

/**
 * Idempotency-Key (X1-X5): the store of keys and responses, the service the HTTP hooks call
 * (`installIdempotency`, installed by configureApi in src/bootstrap.ts) and the sweep of expired records. Server only:
 * the CLI has no HTTP edge and does not import it.
 *
 * The lease must outlast any request, or a second request could take over a key whose first is
 * still running. A request waits for the database at most DATABASE_TIMEOUT_MS per unit of work
 * (docs/operations.md) and runs a few units (a validation read, the use case, a retried conflict):
 * ten bounds leave a wide margin.
 */
@Module({
  providers: [
    {
      provide: IdempotencySettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new IdempotencySettings({
          leaseMs: Math.max(MIN_LEASE_MS, LEASE_IN_DATABASE_BOUNDS * config.databaseTimeoutMs),
        }),
    },
    IdempotencyQueries,
    { provide: IdempotencyStore, useClass: TypeOrmIdempotencyStore },
    IdempotentRequests,
    IdempotencySweeper,
  ],
  exports: [IdempotentRequests, IdempotencySweeper],
})
export class IdempotencyModule {}
