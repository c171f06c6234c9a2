import { Vendors1763700000000 } from './1763700000000-vendors';
import { SqliteQuotedTables1763700000500 } from './1763700000500-sqlite-quoted-tables';
import { partnersMigrations } from '../../../../partners/infrastructure/partners.migrations';
import { mailMigrations } from '../../../../mail/infrastructure/mail.migrations';
import { leadsMigrations } from '../../../../leads/infrastructure/leads.migrations';
import { idempotencyMigrations } from '../../../../idempotency/infrastructure/idempotency.migrations';
import { webhooksMigrations } from '../../../../webhooks/infrastructure/webhooks.migrations';

/** The timestamp that ends a migration's class name (`Leads1763700000400`), by which TypeORM orders them. */
const timestampOf = (migration: { name: string }) => Number(/\d{13}$/.exec(migration.name)![0]);

/**
 * Every migration, in the order they apply: by the timestamp in the name, as TypeORM applies them,
 * so a module's later migration (partners' 1763700000700) takes its place after the other modules'
 * earlier ones. Each module owns its own tables and lists its migrations in
 * `<module>/infrastructure/*.migrations.ts`.
 */
export const migrations = [
  Vendors1763700000000,
  ...partnersMigrations,
  ...mailMigrations,
  ...leadsMigrations,
  // SQLite only: after every table it rewrites (docs/architecture.md, "Schema: migrations and entities")
  SqliteQuotedTables1763700000500,
  ...idempotencyMigrations,
  ...webhooksMigrations,
].sort((a, b) => timestampOf(a) - timestampOf(b));
