/**
 * The idempotency module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { IdempotencyModule } from './idempotency.module';
export { idempotencySchema } from './infrastructure/idempotency.schema';
export { installIdempotency } from './http/idempotency.hooks';
