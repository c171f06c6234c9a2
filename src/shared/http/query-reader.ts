import { FieldError } from '../domain/domain-error';
import { UndecodableValue } from './query-string';

const DIGITS = /^[0-9]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UNDECODABLE = 'must be UTF-8 text, percent-encoded';

/**
 * Reads query parameters by the rules of D39 and collects every error instead of stopping at the
 * first: integers are plain digits, only `repeatable` parameters may be given twice, enums are exact.
 * Unknown parameters are never looked at (ignored).
 */
export class QueryReader {
  readonly errors: FieldError[] = [];

  constructor(private readonly raw: Record<string, unknown>) {}

  private fail(field: string, error: string): undefined {
    this.errors.push({ field, error });
    return undefined;
  }

  /** The single value of a non-repeatable parameter, undefined when absent. */
  private single(name: string): string | undefined {
    const value = this.raw[name];
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return this.fail(name, 'must not be given more than once');
    if (value instanceof UndecodableValue) return this.fail(name, UNDECODABLE);
    return String(value);
  }

  private toInteger(name: string, text: string): number | undefined {
    if (!DIGITS.test(text)) return this.fail(name, 'must be a whole number written in digits');
    const value = Number(text);
    if (value > Number.MAX_SAFE_INTEGER) return this.fail(name, 'must be at most 9007199254740991');
    return value;
  }

  integer(name: string, options: { default: number; min: number; max?: number }): number {
    const text = this.single(name);
    if (text === undefined) return options.default;
    const value = this.toInteger(name, text);
    if (value === undefined) return options.default;
    if (value < options.min) {
      this.fail(name, `must be at least ${options.min}`);
      return options.default;
    }
    if (options.max !== undefined && value > options.max) {
      this.fail(name, `must be at most ${options.max}`);
      return options.default;
    }
    return value;
  }

  /** A repeatable list of integer ids (`?status=3&status=7`). */
  integerList(name: string): number[] {
    const value = this.raw[name];
    if (value === undefined) return [];
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => v instanceof UndecodableValue)) {
      this.fail(name, UNDECODABLE);
      return [];
    }
    const ids: number[] = [];
    for (const text of values.map(String)) {
      const id = this.toInteger(name, text);
      if (id === undefined) return [];
      ids.push(id);
    }
    return [...new Set(ids)];
  }

  /** An exact enum value; unknown values are an error. */
  enumOf<T extends string>(
    name: string,
    values: readonly T[],
    options: { caseInsensitive?: boolean } = {},
  ): T | undefined {
    const text = this.single(name);
    if (text === undefined) return undefined;
    const found = options.caseInsensitive
      ? values.find((v) => v.toLowerCase() === text.toLowerCase())
      : values.find((v) => v === text);
    return found ?? this.fail(name, `must be one of ${values.join(', ')}`);
  }

  /** An enum whose unknown values fall back to the default without error (sortBy in docs/api.md). */
  enumOrDefault<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const text = this.single(name);
    return values.find((v) => v === text) ?? fallback;
  }

  /** `true` or `false` in lower case (D39). */
  boolean(name: string, fallback: boolean): boolean {
    const text = this.single(name);
    if (text === undefined) return fallback;
    if (text === 'true') return true;
    if (text === 'false') return false;
    this.fail(name, 'must be true or false');
    return fallback;
  }

  /** A calendar date `YYYY-MM-DD`, as the UTC midnight that starts it. */
  date(name: string): Date | undefined {
    const text = this.single(name);
    if (text === undefined) return undefined;
    const match = DATE.exec(text);
    if (match) {
      const [, y, m, d] = match.map(Number) as [number, number, number, number];
      const date = new Date(Date.UTC(2000, m - 1, d));
      date.setUTCFullYear(y); // Date.UTC would read years 0-99 as 1900-1999
      if (date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d) return date;
    }
    return this.fail(name, 'must be a date written YYYY-MM-DD');
  }

  /** A free text parameter of at most `maxLength` characters. */
  text(name: string, maxLength = 255): string | undefined {
    const text = this.single(name);
    if (text === undefined) return undefined;
    if ([...text].length > maxLength) return this.fail(name, `must be at most ${maxLength} characters`);
    return text;
  }
}
