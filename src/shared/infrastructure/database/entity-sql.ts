import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { SqlValue, nullableDateFromRow } from './sql-database';

/**
 * The SQL text of one entity's table, built once from its TypeORM metadata, so hand-written
 * statements and the entity never disagree on a column name: a SELECT list that aliases every
 * column to its property name (rows come back shaped like the ORM entity), the INSERT and UPDATE
 * statements, and the conversion of DATETIME values that SQLite returns as text.
 */
export class EntitySql<E extends ObjectLiteral> {
  /** `alias.column AS property, ...` */
  readonly selectList: string;
  /** `alias.column, ...`: the same columns without aliases, for `SqlDatabase.packedColumns` */
  readonly columnList: string;
  /** `INSERT INTO table (columns) VALUES (?, ...)` without the generated id */
  readonly insert: string;
  /** `UPDATE table SET column = ?, ... WHERE id = ?` (every column but the id) */
  readonly updateById: string;
  readonly table: string;
  private readonly properties: string[];
  private readonly writtenColumns: string[];
  /** updateChanged's statements, by the positions of the columns they write (`0,5,31`). */
  private readonly updatesByColumns = new Map<string, string>();
  private readonly dateProperties: string[];
  /** `fromArray`, compiled for this entity's columns */
  private readonly fromValues: (values: readonly unknown[], date: typeof nullableDateFromRow) => E;

  constructor(dataSource: DataSource, entity: EntityTarget<E>, alias: string) {
    const metadata = dataSource.getMetadata(entity);
    this.table = metadata.tableName;
    const columns = metadata.columns;
    this.selectList = columns.map((c) => `${alias}.${c.databaseName} AS ${c.propertyName}`).join(', ');
    this.columnList = columns.map((c) => `${alias}.${c.databaseName}`).join(', ');
    const written = columns.filter((c) => !c.isGenerated);
    this.properties = written.map((c) => c.propertyName);
    this.writtenColumns = written.map((c) => c.databaseName);
    this.insert = `INSERT INTO ${this.table} (${this.writtenColumns.join(', ')}) VALUES (${written
      .map(() => '?')
      .join(', ')})`;
    this.updateById = `UPDATE ${this.table} SET ${this.writtenColumns.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`;
    const isDate = (type: unknown) => type === 'datetime' || type === Date;
    this.dateProperties = columns.filter((c) => isDate(c.type)).map((c) => c.propertyName);
    // One object literal with every property in the order of `selectList`: every row gets the same
    // hidden class, where assigning the properties one by one under computed names made each store
    // a megamorphic lookup (docs/performance.md, rule 2). The names are the entity's own property
    // names, written as JSON string literals.
    const properties = columns.map(
      (c, i) => `${JSON.stringify(c.propertyName)}: ${isDate(c.type) ? `date(v[${i}])` : `v[${i}]`}`,
    );
    this.fromValues = new Function('v', 'date', `return { ${properties.join(', ')} };`) as (
      values: readonly unknown[],
      date: typeof nullableDateFromRow,
    ) => E;
  }

  /**
   * A row of `selectList` (or `columnList`) read as an array (SqlDatabase.rows or packedRows), as an
   * entity-shaped object.
   */
  fromArray(values: readonly unknown[]): E {
    return this.fromValues(values, nullableDateFromRow);
  }

  /** The values of `insert` (and, followed by the id, of `updateById`), in column order. */
  values(row: E): SqlValue[] {
    return this.properties.map((property) => (row[property] ?? null) as SqlValue);
  }

  /**
   * An UPDATE of the columns whose value in `row` differs from `before` (the row as it was read or
   * last written), with their values; the id is the caller's last parameter. Null when nothing
   * differs. SQLite rewrites the entry of every index that has a column the SET names, whether its
   * value changed or not: a lead's full UPDATE rewrote nine index entries where an approval changes
   * two (docs/performance.md, rule 20). A value counts as unchanged only when it is the same value
   * as stored (a Date at the same millisecond, a boolean and its 0 or 1); anything else is written.
   * Statements are kept per set of columns, up to MAX_UPDATE_SHAPES sets; past that, a new set is
   * written by `updateById`, every column, so the prepared statements stay few whatever the updates.
   */
  updateChanged(row: E, before: E): { sql: string; values: SqlValue[] } | null {
    const positions: number[] = [];
    const values: SqlValue[] = [];
    for (let i = 0; i < this.properties.length; i++) {
      const property = this.properties[i]!;
      const value = (row[property] ?? null) as SqlValue;
      if (sameStoredValue(value, before[property] ?? null)) continue;
      positions.push(i);
      values.push(value);
    }
    if (positions.length === 0) return null;
    const key = positions.join(',');
    let sql = this.updatesByColumns.get(key);
    if (sql === undefined) {
      if (this.updatesByColumns.size >= MAX_UPDATE_SHAPES)
        return { sql: this.updateById, values: this.values(row) };
      sql = `UPDATE ${this.table} SET ${positions.map((i) => `${this.writtenColumns[i]} = ?`).join(', ')} WHERE id = ?`;
      this.updatesByColumns.set(key, sql);
    }
    return { sql, values };
  }

  /** A row of `selectList`, with its DATETIME columns as Dates. */
  hydrate(row: ObjectLiteral): E {
    for (const property of this.dateProperties) row[property] = nullableDateFromRow(row[property]);
    return row as E;
  }
}

/** Sets of columns EntitySql.updateChanged keeps a statement for, per entity. */
export const MAX_UPDATE_SHAPES = 64;

/**
 * Whether `value` (about to be written) is what `stored` (read back, or written before) already
 * holds: the same primitive, a Date at the same millisecond, or a boolean and the 0 or 1 it is
 * stored as. In doubt, not the same.
 */
function sameStoredValue(value: unknown, stored: unknown): boolean {
  if (value === stored) return true;
  if (value instanceof Date || stored instanceof Date)
    return value instanceof Date && stored instanceof Date && value.getTime() === stored.getTime();
  if (typeof value === 'boolean') return stored === (value ? 1 : 0);
  if (typeof stored === 'boolean') return value === (stored ? 1 : 0);
  return false;
}
