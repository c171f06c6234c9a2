import {
  Column,
  ColumnOptions,
  DataSource,
  PrimaryColumn,
  PrimaryColumnOptions,
  PrimaryGeneratedColumn,
  ValueTransformer,
} from 'typeorm';
import { DatabaseEngine, engineOf } from './database-dialect';
import { KEY_COLLATION } from './migrations/sql-dialect';

/**
 * The column vocabulary of the ORM entities: the counterpart of the migrations' SqlDialect
 * (migrations/sql-dialect.ts). A helper declares a column the way the migrations create it, on each
 * engine, so that TypeORM's schema diff between the entities and a migrated database is empty
 * (test/integration/schema-parity.int-spec.ts; docs/architecture.md, "Schema: migrations and
 * entities").
 *
 * TypeORM has one type per column for every engine, while the dialect writes, for one column,
 * BIGINT on MySQL and INTEGER on SQLite, DATETIME(3) and DATETIME, MEDIUMTEXT and TEXT. So a helper
 * declares a type that TypeORM accepts on both engines and records what differs on one engine;
 * `alignColumnsWithEngine` applies those differences once the data source has built (and validated)
 * its metadata. EngineAwareDataSource calls it: every data source of the service is one.
 */

/** BIGINT values reach the domain as JS numbers (D2: every id stays below 2^53). */
export const bigintToNumber: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};

/** What a column is on one engine where that differs from its declaration. */
type EngineColumn = Pick<ColumnOptions, 'type' | 'precision' | 'length' | 'charset' | 'collation'>;
type PerEngine = Partial<Record<DatabaseEngine, EngineColumn>>;

const perEngine = new Map<object, Map<string, PerEngine>>();

function onEngines(decorator: PropertyDecorator, engines: PerEngine): PropertyDecorator {
  return (target, propertyKey) => {
    decorator(target, propertyKey);
    const entity = target.constructor;
    const properties = perEngine.get(entity) ?? new Map<string, PerEngine>();
    properties.set(String(propertyKey), engines);
    perEngine.set(entity, properties);
  };
}

/** SqlDialect.bigint: INTEGER on SQLite (the same 64-bit integer storage), BIGINT on MySQL. */
const SQLITE_INTEGER: PerEngine = { sqlite: { type: 'integer' } };

/**
 * SqlDialect.id: BIGINT AUTO_INCREMENT on MySQL, INTEGER PRIMARY KEY AUTOINCREMENT on SQLite. TypeORM
 * hands a generated bigint back as a string; the repositories read it with Number() (D2).
 */
export function IdColumn(): PropertyDecorator {
  return onEngines(PrimaryGeneratedColumn('increment', { type: 'bigint' }), SQLITE_INTEGER);
}

/** SqlDialect.bigint, read as a number (D2). */
export function BigIntColumn(options: ColumnOptions = {}): PropertyDecorator {
  return onEngines(Column({ type: 'bigint', transformer: bigintToNumber, ...options }), SQLITE_INTEGER);
}

/** A SqlDialect.bigint column of a composite primary key (vendor_partners). */
export function PrimaryBigIntColumn(options: PrimaryColumnOptions = {}): PropertyDecorator {
  return onEngines(
    PrimaryColumn({ type: 'bigint', transformer: bigintToNumber, ...options }),
    SQLITE_INTEGER,
  );
}

/**
 * SqlDialect.datetime: DATETIME(3) in UTC on MySQL (D1); DATETIME, ISO-like UTC text, on SQLite
 * (TypeORM converts both ways).
 */
export function DateTimeColumn(options: ColumnOptions = {}): PropertyDecorator {
  return onEngines(Column({ type: 'datetime', precision: 3, ...options }), {
    sqlite: { precision: undefined },
  });
}

/**
 * SqlDialect.key: a lower-cased copy of a text, compared byte for byte and without padding on MySQL
 * (KEY_COLLATION, migration 1763700000900), so that 'ß' never equals 'ss' and `Bolt ` never equals
 * `Bolt`; SQLite compares bytes anyway. The collation is MySQL's here; `alignColumnsWithEngine`
 * names MariaDB's on a data source told it is MariaDB (the schema comparison's).
 */
export function KeyColumn(name: string, options: { nullable?: boolean } = {}): PropertyDecorator {
  return onEngines(Column({ name, type: 'varchar', length: 255, ...options }), {
    mysql: { charset: 'utf8mb4', collation: KEY_COLLATION.mysql },
  });
}

/**
 * CHAR(n) on MySQL (a SHA-256 hex digest); VARCHAR(n) on SQLite, where both are the same text type
 * and TypeORM reads only VARCHAR(n) back with its length (migration 1763700000500).
 */
export function CharColumn(name: string, length: number): PropertyDecorator {
  return onEngines(Column({ name, type: 'varchar', length }), { mysql: { type: 'char' } });
}

/** MEDIUMTEXT on MySQL (up to 16 MiB), TEXT on SQLite (unbounded). */
export function MediumTextColumn(options: ColumnOptions = {}): PropertyDecorator {
  return onEngines(Column({ type: 'text', ...options }), { mysql: { type: 'mediumtext' } });
}

/**
 * Applies each helper's per-engine differences to the built metadata of `dataSource`, and, on
 * MariaDB, its own NO PAD binary collation for the key columns (KEY_COLLATION) and the word
 * information_schema uses for a foreign key written without ON DELETE/ON UPDATE (as every
 * migration writes them): RESTRICT, where SQLite and MySQL 8 say NO ACTION. InnoDB treats both
 * words alike.
 */
export function alignColumnsWithEngine(dataSource: DataSource): void {
  const engine = engineOf(dataSource);
  for (const entity of dataSource.entityMetadatas) {
    for (const column of entity.columns) {
      const differences = perEngine.get(column.target as object)?.get(column.propertyName)?.[engine];
      if (!differences) continue;
      if ('type' in differences) column.type = differences.type!;
      if ('precision' in differences) column.precision = differences.precision;
      if ('length' in differences) column.length = differences.length?.toString() ?? '';
      if ('charset' in differences) column.charset = differences.charset;
      if ('collation' in differences) column.collation = differences.collation;
    }
    if (dataSource.options.type === 'mariadb') {
      for (const column of entity.columns) {
        if (column.collation === KEY_COLLATION.mysql) column.collation = KEY_COLLATION.mariadb;
      }
      for (const foreignKey of entity.foreignKeys) {
        if (foreignKey.onDelete === 'NO ACTION') foreignKey.onDelete = 'RESTRICT';
        if (foreignKey.onUpdate === 'NO ACTION') foreignKey.onUpdate = 'RESTRICT';
      }
    }
  }
}
