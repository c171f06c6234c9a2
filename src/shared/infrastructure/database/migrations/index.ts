import { Vendors1763700000000 } from './1763700000000-vendors';
import { SqliteQuotedTables1763700000500 } from './1763700000500-sqlite-quoted-tables';
import { partnersMigrations } from '../../../../partners/infrastructure/partners.migrations';
import { mailMigrations } from '../../../../mail/infrastructure/mail.migrations';
import { leadsMigrations } from '../../../../leads/infrastructure/leads.migrations';
import { idempotencyMigrations } from '../../../../idempotency/infrastructure/idempotency.migrations';

/**
 * Every migration, in the order they apply (TypeORM also sorts by the timestamp in the name).
 * Each module owns its own tables and lists its migrations in `<module>/infrastructure/*.migrations.ts`.
 */
export const migrations = [
  Vendors1763700000000,
  ...partnersMigrations,
  ...mailMigrations,
  ...leadsMigrations,
  // SQLite only: after every table it rewrites (docs/architecture.md, "Schema: migrations and entities")
  SqliteQuotedTables1763700000500,
  ...idempotencyMigrations,
];
