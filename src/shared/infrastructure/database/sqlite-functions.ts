import { foldCase } from '../../domain/text';

/** The part of a better-sqlite3 connection this file uses. */
interface FunctionRegistry {
  function(
    name: string,
    options: { deterministic: boolean },
    implementation: (value: unknown) => unknown,
  ): unknown;
}

/**
 * SQL functions the service adds to every SQLite connection it opens (TypeORM's and the read
 * connection of SqlDatabase):
 * - `fold_case(text)`: the text lower-cased character by character (`foldCase`, D13), null for null.
 *   SQLite's own LOWER() folds ASCII only, so `ORDER BY LOWER(name)` put `Émile` before `élan`;
 *   MySQL/MariaDB sort by `CAST(LOWER(name) AS BINARY)`, the same lower-cased form in code point
 *   order (D24, `src/partners/README.md`).
 */
export function registerSqliteFunctions(db: FunctionRegistry): void {
  db.function('fold_case', { deterministic: true }, (value) =>
    typeof value === 'string' ? foldCase(value) : value,
  );
}
