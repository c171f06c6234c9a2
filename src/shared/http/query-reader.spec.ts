import { QueryReader } from './query-reader';

function read<T>(raw: Record<string, unknown>, fn: (q: QueryReader) => T): { value: T; errors: string[] } {
  const reader = new QueryReader(raw);
  const value = fn(reader);
  return { value, errors: reader.errors.map((e) => e.field) };
}

describe('QueryReader (D39)', () => {
  const page = (q: QueryReader) => q.integer('page', { default: 0, min: 0 });

  it('uses the default when the parameter is absent', () => {
    expect(read({}, page)).toEqual({ value: 0, errors: [] });
  });

  it('accepts plain digits, leading zeros included', () => {
    expect(read({ page: '007' }, page)).toEqual({ value: 7, errors: [] });
  });

  it.each(['-1', '+1', '1e2', '1.5', '0x10', '', ' 1', 'abc', '9007199254740992'])('rejects %j', (value) => {
    expect(read({ page: value }, page).errors).toEqual(['page']);
  });

  it('rejects a non-repeatable parameter given twice', () => {
    expect(read({ page: ['1', '2'] }, page).errors).toEqual(['page']);
  });

  it('enforces the range', () => {
    const perPage = (q: QueryReader) => q.integer('perPage', { default: 20, min: 1, max: 100 });
    expect(read({ perPage: '100' }, perPage)).toEqual({ value: 100, errors: [] });
    expect(read({ perPage: '101' }, perPage).errors).toEqual(['perPage']);
    expect(read({ perPage: '0' }, perPage).errors).toEqual(['perPage']);
  });

  it('reads repeatable integer lists and rejects a bad element', () => {
    expect(read({ status: ['3', '7', '3'] }, (q) => q.integerList('status'))).toEqual({
      value: [3, 7],
      errors: [],
    });
    expect(read({ status: '3' }, (q) => q.integerList('status'))).toEqual({ value: [3], errors: [] });
    expect(read({ status: ['3', 'x'] }, (q) => q.integerList('status')).errors).toEqual(['status']);
  });

  it('matches enums exactly unless told otherwise', () => {
    const status = (q: QueryReader) => q.enumOf('approvalStatus', ['PENDING', 'APPROVED'] as const);
    expect(read({ approvalStatus: 'PENDING' }, status)).toEqual({ value: 'PENDING', errors: [] });
    expect(read({ approvalStatus: 'pending' }, status).errors).toEqual(['approvalStatus']);
    const direction = (q: QueryReader) =>
      q.enumOf('sortDirection', ['asc', 'desc'] as const, { caseInsensitive: true });
    expect(read({ sortDirection: 'DESC' }, direction)).toEqual({ value: 'desc', errors: [] });
    expect(read({ sortDirection: 'down' }, direction).errors).toEqual(['sortDirection']);
  });

  it('falls back without error where the contract says so (sortBy)', () => {
    expect(
      read({ sortBy: 'colour' }, (q) => q.enumOrDefault('sortBy', ['id', 'createdAt'] as const, 'createdAt')),
    ).toEqual({
      value: 'createdAt',
      errors: [],
    });
  });

  it('reads true/false in lower case only', () => {
    expect(read({ archived: 'true' }, (q) => q.boolean('archived', false)).value).toBe(true);
    expect(read({ archived: 'false' }, (q) => q.boolean('archived', false)).value).toBe(false);
    expect(read({ archived: 'TRUE' }, (q) => q.boolean('archived', false)).errors).toEqual(['archived']);
    expect(read({ archived: '1' }, (q) => q.boolean('archived', false)).errors).toEqual(['archived']);
  });

  it('reads real calendar dates as UTC midnight', () => {
    expect(read({ d: '2026-02-28' }, (q) => q.date('d')).value).toEqual(new Date('2026-02-28T00:00:00.000Z'));
    expect(read({ d: '0001-01-01' }, (q) => q.date('d')).value).toEqual(new Date('0001-01-01T00:00:00.000Z'));
    expect(read({ d: '9999-12-31' }, (q) => q.date('d')).value).toEqual(new Date('9999-12-31T00:00:00.000Z'));
    expect(read({ d: '2000-02-29' }, (q) => q.date('d')).errors).toEqual([]);
    for (const bad of [
      '2026-02-30',
      '2026-2-1',
      '20260201',
      '2026-13-01',
      '2026-02-01T00:00:00Z',
      '2001-02-29',
      '0099-02-29',
    ]) {
      expect(read({ d: bad }, (q) => q.date('d')).errors).toEqual(['d']);
    }
  });

  it('collects every error, not only the first (D18)', () => {
    const result = read({ page: '-1', perPage: '500', archived: 'yes' }, (q) => [
      q.integer('page', { default: 0, min: 0 }),
      q.integer('perPage', { default: 20, min: 1, max: 100 }),
      q.boolean('archived', false),
    ]);
    expect(result.errors).toEqual(['page', 'perPage', 'archived']);
  });

  it('limits free text by code points', () => {
    expect(read({ keyword: '😀'.repeat(255) }, (q) => q.text('keyword')).errors).toEqual([]);
    expect(read({ keyword: '😀'.repeat(256) }, (q) => q.text('keyword')).errors).toEqual(['keyword']);
  });
});
