/**
 * Datetimes as text, D1: ISO 8601 in UTC with milliseconds (`2026-01-31T09:30:00.000Z`). The same
 * text as `Date.prototype.toISOString`, computed from the time value with integer arithmetic: V8's
 * toISOString took about 0.6 µs a call, and a page of 20 leads makes 40 of them
 * (docs/performance.md, "Datetimes are written as text without toISOString"). Years outside 0-9999 (and an invalid Date, which throws a
 * RangeError) are left to toISOString.
 */
export function isoDateTime(date: Date): string {
  return format(date, 'T', 'Z');
}

/** isoDateTime with a space for the `T` and no zone letter: `YYYY-MM-DD HH:MM:SS.SSS`, still UTC. */
export function spacedIsoDateTime(date: Date): string {
  return format(date, ' ', '');
}

const MS_PER_DAY = 86_400_000;
/** Days from 0000-03-01 to 1970-01-01: the civil calendar below counts years from March. */
const EPOCH_SHIFT_DAYS = 719_468;
/** The time values of 0000-01-01T00:00:00.000Z and of 10000-01-01T00:00:00.000Z. */
const FIRST_FOUR_DIGIT_YEAR = -62_167_219_200_000;
const PAST_FOUR_DIGIT_YEARS = 253_402_300_800_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

function format(date: Date, between: string, after: string): string {
  const time = date.getTime();
  if (!(time >= FIRST_FOUR_DIGIT_YEAR && time < PAST_FOUR_DIGIT_YEARS)) {
    const iso = date.toISOString(); // throws on an invalid Date, as before
    return after === 'Z' ? iso : iso.replace('T', between).replace('Z', after);
  }
  const days = Math.floor(time / MS_PER_DAY);
  let rest = time - days * MS_PER_DAY;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // The proleptic Gregorian date of a day number (H. Hinnant, "chrono-Compatible Low-Level Date
  // Algorithms", civil_from_days), in 400-year eras of 146,097 days whose years start on March 1.
  const z = days + EPOCH_SHIFT_DAYS;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return (
    TWO_DIGITS[Math.floor(year / 100)]! +
    TWO_DIGITS[year % 100]! +
    '-' +
    TWO_DIGITS[month]! +
    '-' +
    TWO_DIGITS[day]! +
    between +
    TWO_DIGITS[hours]! +
    ':' +
    TWO_DIGITS[minutes]! +
    ':' +
    TWO_DIGITS[seconds]! +
    '.' +
    THREE_DIGITS[millis]! +
    after
  );
}
