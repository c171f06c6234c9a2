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
  /** `INSERT INTO table (columns) VALUES (?, ...)` without the generated id */
  readonly insert: string;
  /** `UPDATE table SET column = ?, ... WHERE id = ?` (every column but the id) */
  readonly updateById: string;
  readonly table: string;
  private readonly properties: string[];
  private readonly dateProperties: string[];
  /** `fromArray`, compiled for this entity's columns */
  private readonly fromValues: (values: readonly unknown[], date: typeof nullableDateFromRow) => E;

  constructor(dataSource: DataSource, entity: EntityTarget<E>, alias: string) {
    const metadata = dataSource.getMetadata(entity);
    this.table = metadata.tableName;
    const columns = metadata.columns;
    this.selectList = columns.map((c) => `${alias}.${c.databaseName} AS ${c.propertyName}`).join(', ');
    const written = columns.filter((c) => !c.isGenerated);
    this.properties = written.map((c) => c.propertyName);
    this.insert = `INSERT INTO ${this.table} (${written.map((c) => c.databaseName).join(', ')}) VALUES (${written
      .map(() => '?')
      .join(', ')})`;
    this.updateById = `UPDATE ${this.table} SET ${written.map((c) => `${c.databaseName} = ?`).join(', ')} WHERE id = ?`;
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

  /** A row of `selectList` read as an array (SqlDatabase.rows), as an entity-shaped object. */
  fromArray(values: readonly unknown[]): E {
    return this.fromValues(values, nullableDateFromRow);
  }

  /** The values of `insert` (and, followed by the id, of `updateById`), in column order. */
  values(row: E): SqlValue[] {
    return this.properties.map((property) => (row[property] ?? null) as SqlValue);
  }

  /** A row of `selectList`, with its DATETIME columns as Dates. */
  hydrate(row: ObjectLiteral): E {
    for (const property of this.dateProperties) row[property] = nullableDateFromRow(row[property]);
    return row as E;
  }
}
