import { Column, ColumnOptions, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

/** BIGINT values reach the domain as JS numbers (D2: every id stays below 2^53). */
export const bigintToNumber: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};

/**
 * The table column is BIGINT (see the migrations); TypeORM is told "increment" so that it hands the
 * generated id back as a number, not as the string it uses for bigint. mysql2 (supportBigNumbers,
 * no bigNumberStrings) and better-sqlite3 both read the stored value as a number.
 */
export function IdColumn(): PropertyDecorator {
  return PrimaryGeneratedColumn('increment');
}

export function BigIntColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'bigint', transformer: bigintToNumber, ...options });
}

/** DATETIME(3) in UTC on MySQL; ISO-like UTC text on SQLite (TypeORM converts both ways). */
export function DateTimeColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'datetime', precision: 3, ...options });
}
