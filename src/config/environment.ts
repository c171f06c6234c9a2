import { Transform, plainToInstance } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidationArguments,
  validateSync,
} from 'class-validator';

/**
 * The environment variables of docs/configuration.md "Environment": one property per variable,
 * typed, with its default, and the class-validator decorators that say which values it accepts.
 * This is the only place that names them; AppConfig (app-config.ts) arranges them for the code.
 * To add a variable, add a property here and read it in AppConfig (docs/configuration.md).
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** JSON lines for machines, or one readable line per message for a person (docs/configuration.md). */
export type LogFormat = 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

/** Problems with the values, one per variable; the message is one line naming each variable. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(
      `Invalid configuration: ${problems
        .map((p) => `${p.variable} ${p.problem} (got ${JSON.stringify(p.value)})`)
        .join('; ')}`,
    );
    this.name = 'ConfigError';
  }
}

export interface ConfigProblem {
  variable: string;
  problem: string;
  value: string;
}

// ---- what a value may look like: each decorator carries the message an operator reads ----

/** Digits only, then a number: `1e3`, ` 5` or `15s` stay text and fail the number check. */
const digits = (maxDigits: number) =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && new RegExp(`^[0-9]{1,${maxDigits}}$`).test(value) ? Number(value) : value,
  );

function WholeNumber(min: number, max: number): PropertyDecorator {
  const message = `must be a whole number from ${min} to ${max}`;
  return all(digits(10), IsInt({ message }), Min(min, { message }), Max(max, { message }));
}

function PortNumber(): PropertyDecorator {
  const message = 'must be a port number from 0 to 65535';
  return all(digits(5), IsInt({ message }), Min(0, { message }), Max(65535, { message }));
}

/** `true`/`1` or `false`/`0`. */
function Flag(): PropertyDecorator {
  const flags: Record<string, boolean> = { true: true, 1: true, false: false, 0: false };
  return all(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && value in flags ? flags[value] : value,
    ),
    IsBoolean({ message: 'must be true or false' }),
  );
}

function urlProblem(value: unknown, protocols: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(String(value));
  } catch {
    return `must be a URL (${protocols.join(', ')})`;
  }
  return protocols.includes(parsed.protocol) ? undefined : `must start with ${protocols.join(' or ')}`;
}

/** A URL whose scheme is one of `protocols` (with the colon, as URL.protocol gives it). */
function UrlWith(protocols: readonly string[]): PropertyDecorator {
  return check(undefined, 'urlWith', (value) => urlProblem(value, protocols));
}

/** Each an origin exactly as a browser sends it: `https://app.example.com, http://localhost:5173`. */
function OriginList(): PropertyDecorator {
  const isOrigin = (origin: string): boolean => {
    try {
      const parsed = new URL(origin);
      return ['http:', 'https:'].includes(parsed.protocol) && parsed.origin === origin;
    } catch {
      return false;
    }
  };
  return all(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== '')
        : value,
    ),
    check(undefined, 'originList', (value) =>
      Array.isArray(value) && value.every((origin) => typeof origin === 'string' && isOrigin(origin))
        ? undefined
        : 'must list origins like https://app.example.com, comma-separated',
    ),
  );
}

/** What is wrong with a DATABASE_URL, or undefined (the accepted forms: docs/configuration.md). */
export function databaseUrlProblem(raw: string): string | undefined {
  if (raw.startsWith('sqlite:')) {
    return raw === 'sqlite:' ? 'needs a file path after sqlite:' : undefined;
  }
  if (raw.startsWith('mysql://')) {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      return 'is not a valid mysql:// URL';
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!parsed.hostname || database === '' || database.includes('/')) {
      return 'must look like mysql://user:pass@host:3306/database';
    }
    return undefined;
  }
  return 'must start with sqlite: or mysql://';
}

function DatabaseUrl(): PropertyDecorator {
  return check(undefined, 'databaseUrl', (value) => databaseUrlProblem(String(value)));
}

/**
 * Checks between variables are in this group: they run once every variable is valid on its own,
 * so that a bad value is reported once, for itself.
 */
const RELATIONS = 'relations';

/** Node enforces neither HTTP timeout when the headers may take longer than the whole request. */
function NotShorterThan(other: keyof EnvironmentVariables): PropertyDecorator {
  return check(RELATIONS, 'notShorterThan', (value, args) => {
    const bound = (args.object as EnvironmentVariables)[other];
    return typeof value === 'number' && typeof bound === 'number' && value < bound
      ? `must not be shorter than ${other} (${bound})`
      : undefined;
  });
}

/** A class-validator check whose message is the problem `problemOf` finds (undefined: valid). */
function check(
  group: string | undefined,
  name: string,
  problemOf: (value: unknown, args: ValidationArguments) => string | undefined,
): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value, args) => problemOf(value, args!) === undefined,
        defaultMessage: (args) => problemOf(args!.value, args!) ?? '',
      },
    },
    group === undefined ? undefined : { groups: [group] },
  );
}

function all(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

// ---- the variables (docs/configuration.md "Environment", same order) ----

export class EnvironmentVariables {
  @PortNumber()
  PORT: number = 3000;

  @IsString()
  HOST: string = '0.0.0.0';

  /** 0 turns the management port off. */
  @PortNumber()
  MANAGEMENT_PORT: number = 9464;

  /** X15: loopback unless said otherwise, apart from HOST. */
  @IsString()
  MANAGEMENT_HOST: string = '127.0.0.1';

  @DatabaseUrl()
  DATABASE_URL: string = 'sqlite:data/app.sqlite';

  @Flag()
  MIGRATIONS_RUN: boolean = true;

  /** unset: emails are logged instead of sent (D35) */
  @IsOptional()
  @UrlWith(['smtp:', 'smtps:'])
  SMTP_URL: string | undefined = undefined;

  @Matches(/^[^\s@<>]+@[^\s@<>]+$/, { message: 'must be an email address' })
  MAIL_FROM: string = 'no-reply@localhost';

  /** The vendor's partner portal serves the accept link (X20), not this API: a local portal by default. */
  @UrlWith(['http:', 'https:'])
  PORTAL_URL: string = 'http://localhost:8080';

  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  /** unset: pretty when the log goes to a terminal, JSON otherwise */
  @IsOptional()
  @IsIn(LOG_FORMATS, { message: `must be ${LOG_FORMATS.join(' or ')}` })
  LOG_FORMAT: LogFormat | undefined = undefined;

  @WholeNumber(100, 600_000)
  HTTP_HEADERS_TIMEOUT_MS: number = 15_000;

  @NotShorterThan('HTTP_HEADERS_TIMEOUT_MS')
  @WholeNumber(100, 600_000)
  HTTP_REQUEST_TIMEOUT_MS: number = 30_000;

  /** unset: derived from the process's open-file limit at start; 0: no cap */
  @IsOptional()
  @WholeNumber(0, 1_000_000)
  HTTP_MAX_CONNECTIONS: number | undefined = undefined;

  @WholeNumber(100, 60_000)
  DATABASE_TIMEOUT_MS: number = 5000;

  /** X6; 0: off */
  @WholeNumber(0, 1_000_000_000)
  RATE_LIMIT_PER_MINUTE: number = 6000;

  /** X8; 0: off */
  @WholeNumber(0, 1_000_000_000)
  AUTH_FAILURES_PER_MINUTE: number = 60;

  /** X7: counters in Redis when set, else in the process */
  @IsOptional()
  @UrlWith(['redis:', 'rediss:'])
  REDIS_URL: string | undefined = undefined;

  @IsString()
  REDIS_KEY_PREFIX: string = 'prm:rl:';

  /** none: no CORS at all */
  @OriginList()
  CORS_ORIGINS: string[] = [];

  /** X16 */
  @Flag()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** X18 */
  @WholeNumber(1, 3_600_000)
  WEBHOOK_RETRY_BASE_MS: number = 30_000;
}

const VARIABLES = Object.keys(new EnvironmentVariables()) as (keyof EnvironmentVariables)[];

/**
 * Validates `env` (process.env, or what a test passes) into EnvironmentVariables; an empty value
 * counts as unset. Throws one ConfigError naming every variable whose value cannot be used.
 */
export function validateEnvironment(env: Record<string, unknown>): EnvironmentVariables {
  const given: Record<string, string> = {};
  for (const name of VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== null && String(value) !== '') given[name] = String(value);
  }
  const variables = plainToInstance(EnvironmentVariables, given);
  const options = { stopAtFirstError: true, forbidUnknownValues: true };
  let errors = validateSync(variables, { ...options, strictGroups: true });
  if (errors.length === 0) errors = validateSync(variables, { ...options, groups: [RELATIONS] });
  if (errors.length > 0) {
    throw new ConfigError(
      errors.map((error) => ({
        variable: error.property,
        problem: Object.values(error.constraints ?? {})[0] ?? 'is not valid',
        value: given[error.property] ?? String(error.value),
      })),
    );
  }
  return variables;
}
