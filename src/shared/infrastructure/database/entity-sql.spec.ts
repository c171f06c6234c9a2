import type { DataSource } from 'typeorm';
import { EntitySql, MAX_UPDATE_SHAPES } from './entity-sql';

interface Row {
  id?: number;
  name: string | null;
  active: boolean;
  seenAt: Date | null;
  [extra: `c${number}`]: string;
}

/** The table metadata EntitySql reads from TypeORM: an id, three columns, and `extra` more. */
function entitySql(extra = 0): EntitySql<Row> {
  const columns = [
    { propertyName: 'id', databaseName: 'id', isGenerated: true, type: 'integer' },
    { propertyName: 'name', databaseName: 'name', isGenerated: false, type: 'varchar' },
    { propertyName: 'active', databaseName: 'active', isGenerated: false, type: 'boolean' },
    { propertyName: 'seenAt', databaseName: 'seen_at', isGenerated: false, type: 'datetime' },
    ...Array.from({ length: extra }, (_, i) => ({
      propertyName: `c${i}`,
      databaseName: `c_${i}`,
      isGenerated: false,
      type: 'varchar',
    })),
  ];
  const dataSource = { getMetadata: () => ({ tableName: 't', columns }) } as unknown as DataSource;
  return new EntitySql<Row>(dataSource, 'Row', 'x');
}

describe('EntitySql.updateChanged (docs/performance.md, rule 20)', () => {
  const at = new Date('2026-01-02T03:04:05.006Z');
  const row = (overrides: Partial<Row> = {}): Row => ({ name: 'a', active: true, seenAt: at, ...overrides });

  it('writes only the columns whose value differs, in column order', () => {
    expect(entitySql().updateChanged(row({ name: 'b', seenAt: null }), row())).toEqual({
      sql: 'UPDATE t SET name = ?, seen_at = ? WHERE id = ?',
      values: ['b', null],
    });
  });

  it('answers null when nothing differs, counting a value read back as the same as the one written', () => {
    const sql = entitySql();
    expect(sql.updateChanged(row(), row())).toBeNull();
    // as read back: a boolean as 0 or 1, a Date as another object at the same millisecond
    const read = { name: 'a', active: 1, seenAt: new Date(at.getTime()) } as unknown as Row;
    expect(sql.updateChanged(row(), read)).toBeNull();
    expect(sql.updateChanged(row({ active: false }), { ...read, active: 0 } as unknown as Row)).toBeNull();
    expect(
      sql.updateChanged(row({ name: null }), { ...row(), name: undefined } as unknown as Row),
    ).toBeNull();
  });

  it('writes whatever is not certainly the same', () => {
    const sql = entitySql();
    const differs = (value: Partial<Row>, stored: Record<string, unknown>) =>
      sql.updateChanged(row(value), { ...row(), ...stored } as unknown as Row)?.values;
    expect(differs({ active: false }, { active: 1 })).toEqual([false]);
    expect(differs({ active: true }, { active: '1' })).toEqual([true]);
    expect(differs({ seenAt: at }, { seenAt: at.getTime() })).toEqual([at]);
    expect(differs({ seenAt: new Date(at.getTime() + 1) }, {})).toEqual([new Date(at.getTime() + 1)]);
    expect(differs({ name: '' }, { name: null })).toEqual(['']);
    expect(differs({ name: 'A' }, { name: 'a' })).toEqual(['A']);
  });

  it(`keeps a statement for ${MAX_UPDATE_SHAPES} sets of columns, then writes every column`, () => {
    const sql = entitySql(12);
    const base = row(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, 'v'])));
    const statements = new Set<string>();
    // every set of two of the twelve extra columns: 66 sets
    for (let i = 0; i < 12; i++)
      for (let j = i + 1; j < 12; j++) {
        const changed = { ...base, [`c${i}`]: 'w', [`c${j}`]: 'w' };
        const update = sql.updateChanged(changed, base)!;
        statements.add(update.sql);
        expect(update.values).toEqual(update.sql === sql.updateById ? sql.values(changed) : ['w', 'w']);
      }
    expect(statements.size).toBe(MAX_UPDATE_SHAPES + 1);
    expect(statements).toContain(sql.updateById);
    // a set already kept still has its own statement
    expect(sql.updateChanged({ ...base, c0: 'w', c1: 'w' }, base)!.sql).toBe(
      'UPDATE t SET c_0 = ?, c_1 = ? WHERE id = ?',
    );
  });
});
