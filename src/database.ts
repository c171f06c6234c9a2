import { contactsSchema } from './contacts';
import { idempotencySchema } from './idempotency';
import { leadsSchema } from './leads';
import { mailSchema } from './mail';
import { partnersSchema } from './partners';
import { combineSchemas } from './shared/infrastructure/database/database-schema';
import { SqliteQuotedTables1763700000500 } from './shared/infrastructure/database/migrations/1763700000500-sqlite-quoted-tables';
import { NoPadKeys1763700000900 } from './shared/infrastructure/database/migrations/1763700000900-no-pad-keys';
import { vendorsSchema } from './vendors';
import { webhooksSchema } from './webhooks';

/**
 * The whole database, as the composition root sees it: every module's entities and migrations
 * (each module owns its own, `<module>/infrastructure/<module>.schema.ts`). Every data source
 * registers every entity, whatever modules it serves (the server, the CLI, a test context of one
 * module, the TypeORM CLI): their foreign keys name each other's tables (docs/architecture.md,
 * "Schema: migrations and entities"). Migrations apply in the order of their timestamps.
 */
export const databaseSchema = combineSchemas([
  vendorsSchema,
  partnersSchema,
  mailSchema,
  leadsSchema,
  contactsSchema,
  idempotencySchema,
  webhooksSchema,
  // SQLite only, after every table it rewrites; it names no table (docs/architecture.md)
  { entities: [], migrations: [SqliteQuotedTables1763700000500] },
  // MySQL/MariaDB only: every lower-cased key column NO PAD; found by collation, it names no table
  { entities: [], migrations: [NoPadKeys1763700000900] },
]);

export const { entities, migrations } = databaseSchema;
