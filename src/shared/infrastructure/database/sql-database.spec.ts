import { dateFromRow, nullableDateFromRow, sqliteDateTime } from './sql-database';

describe('DATETIME values read back by hand-written SQL', () => {
  it.each([
    '2026-11-23T06:09:12.345Z',
    '1970-01-01T00:00:00.000Z',
    '2024-02-29T23:59:59.999Z',
    '9999-12-31T23:59:59.999Z',
  ])('reads SQLite text %s back as the same instant (D1)', (iso) => {
    expect(dateFromRow(sqliteDateTime(new Date(iso))).toISOString()).toBe(iso);
  });

  it('reads text without milliseconds, ISO text, a Date from mysql2 and null', () => {
    expect(dateFromRow('2026-11-23 06:09:12').toISOString()).toBe('2026-11-23T06:09:12.000Z');
    expect(dateFromRow('2026-11-23T06:09:12.345Z').toISOString()).toBe('2026-11-23T06:09:12.345Z');
    const date = new Date();
    expect(dateFromRow(date)).toBe(date);
    expect(nullableDateFromRow(null)).toBeNull();
  });
});
