import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';

/**
 * One `INSERT INTO table (columns) VALUES (...), (...), ...` for many rows of an entity, written by
 * hand and run through `EntityManager.query`: the bulk import's rows (X13), 500 per statement.
 * TypeORM's QueryBuilder makes a named parameter of every value and rewrites the SQL around it,
 * which cost the import about three quarters of its rate on SQLite (docs/performance.md, "The
 * bulk import's multi-row INSERT"); the columns still come from the entity's metadata, so the SQL
 * cannot disagree with the entity. The generated id column is left out; a Date is bound as the
 * engine stores it and a boolean as 0 or 1.
 */
export async function insertRows<E extends ObjectLiteral>(
  tx: EntityManager,
  dialect: DatabaseDialect,
  entity: EntityTarget<E>,
  rows: readonly Partial<E>[],
): Promise<void> {
  if (rows.length === 0) return;
  const metadata = tx.connection.getMetadata(entity);
  const columns = metadata.columns.filter((column) => !column.isGenerated);
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  const values: unknown[] = [];
  for (const row of rows) {
    for (const column of columns) values.push(bindable(dialect, row[column.propertyName as keyof E]));
  }
  await tx.query(
    `INSERT INTO ${metadata.tableName} (${columns.map((column) => column.databaseName).join(', ')})
     VALUES ${rows.map(() => placeholders).join(', ')}`,
    values,
  );
}

function bindable(dialect: DatabaseDialect, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return dialect.dateTime(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
