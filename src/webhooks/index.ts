/**
 * The webhooks module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import). Modules publish events through the
 * `DomainEvents` port of src/shared/application, which `WebhooksModule` binds: nothing of the events
 * is exported here.
 */
export { WebhooksModule } from './webhooks.module';
export { webhooksSchema } from './infrastructure/webhooks.schema';
