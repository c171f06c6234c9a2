import { isoDateTime, spacedIsoDateTime } from './date-time';

/** D1's datetime text, computed without toISOString (docs/performance.md, "Datetimes are written as text without toISOString"): always the same text. */
describe('isoDateTime and spacedIsoDateTime', () => {
  const spacedOf = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');

  it.each([
    '1970-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '0000-01-01T00:00:00.000Z',
    '0000-02-29T12:00:00.000Z',
    '1000-01-01T00:00:00.000Z',
    '1900-02-28T23:59:59.999Z',
    '1900-03-01T00:00:00.000Z',
    '2000-02-29T00:00:00.001Z',
    '2024-02-29T23:59:59.999Z',
    '2026-12-31T23:59:59.999Z',
    '2100-03-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
  ])('writes %s as toISOString does', (text) => {
    const date = new Date(text);
    expect(date.toISOString()).toBe(text);
    expect(isoDateTime(date)).toBe(text);
    expect(spacedIsoDateTime(date)).toBe(spacedOf(date));
  });

  it('agrees with toISOString on every day of 1900-2200 and on random instants of years 0-9999', () => {
    const mismatches: string[] = [];
    const check = (time: number) => {
      const date = new Date(time);
      if (isoDateTime(date) !== date.toISOString() || spacedIsoDateTime(date) !== spacedOf(date))
        mismatches.push(date.toISOString());
    };
    for (let time = Date.UTC(1900, 0, 1); time < Date.UTC(2200, 0, 1); time += 86_400_000) {
      check(time);
      check(time + 86_399_999);
    }
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const first = new Date('0000-01-01T00:00:00.000Z').getTime();
    const span = new Date('9999-12-31T23:59:59.999Z').getTime() - first;
    for (let i = 0; i < 50_000; i++) check(first + Math.floor(random() * span));
    expect(mismatches).toEqual([]);
  });

  it('leaves years outside 0-9999 to toISOString, and still throws on an invalid Date', () => {
    for (const date of [new Date(Date.UTC(10000, 0, 1)), new Date(-62_167_219_200_001), new Date(8.64e15)]) {
      expect(isoDateTime(date)).toBe(date.toISOString());
      expect(spacedIsoDateTime(date)).toBe(spacedOf(date));
    }
    expect(isoDateTime(new Date(-62_167_219_200_001))).toBe('-000001-12-31T23:59:59.999Z');
    expect(() => isoDateTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
