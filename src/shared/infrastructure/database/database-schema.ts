import type { MigrationInterface } from 'typeorm';

/** A TypeORM entity or migration class. */
type Class<T> = new (...args: never[]) => T;

/**
 * What a module contributes to the database: its ORM entities and its migrations. Each module
 * declares its own (`<module>/infrastructure/<module>.schema.ts`, exported by its `index.ts`); the
 * composition root (`src/database.ts`) combines them, so `shared/` names no module.
 */
export interface DatabaseSchema {
  entities: Class<unknown>[];
  migrations: Class<MigrationInterface>[];
}

/** The timestamp that ends a migration's class name (`Leads1763700000400`), by which TypeORM orders them. */
const timestampOf = (migration: { name: string }) => Number(/\d{13}$/.exec(migration.name)![0]);

/**
 * Several schemas as one: every entity, and every migration in the order they apply, by the
 * timestamp in the name as TypeORM applies them, so a module's later migration (partners'
 * 1763700000700) takes its place after the other modules' earlier ones.
 */
export function combineSchemas(schemas: DatabaseSchema[]): DatabaseSchema {
  return {
    entities: schemas.flatMap((schema) => schema.entities),
    migrations: schemas
      .flatMap((schema) => schema.migrations)
      .sort((a, b) => timestampOf(a) - timestampOf(b)),
  };
}
