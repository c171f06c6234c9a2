import { isAbsolute, resolve } from 'node:path';
import {
  ConfigError,
  EnvironmentVariables,
  LogFormat,
  LogLevel,
  databaseUrlProblem,
  validateEnvironment,
} from './environment';
import { PROJECT_ROOT } from './project-root';

export { ConfigError, LogFormat, LogLevel };

/**
 * Typed configuration (docs/configuration.md "Environment"): the validated environment variables
 * (environment.ts) arranged the way the code reads them. Everything else receives an AppConfig.
 */
export type DatabaseConfig =
  // path: absolute (a relative one is resolved against PROJECT_ROOT), or ':memory:'
  | { kind: 'sqlite'; path: string }
  | {
      kind: 'mysql';
      url: string;
      host: string;
      port: number;
      user: string;
      password: string;
      database: string;
    };

/**
 * Bounds on what a client may hold on the public port (docs/operations.md): how long the request
 * headers, and the whole request with its body, may take to arrive (Node's `headersTimeout` and
 * `requestTimeout`), and how many connections may be open at once (`server.maxConnections`;
 * undefined: derived from the process's open-file limit at start, 0: no cap).
 */
export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number | undefined;
}

/**
 * Protection of the public port against abuse (docs/operations.md): browser origins allowed to call
 * the API (CORS; none by default), the per-vendor request limit (X6; 0: off), the per-address limit
 * on failed authentications (X8; 0: off), and where the counters live (X7: Redis when set, else the
 * process).
 */
export interface EdgeProtection {
  corsOrigins: readonly string[];
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  redisUrl: string | undefined;
  /** prepended to every Redis key of the limiter (instances sharing a limit use the same) */
  redisKeyPrefix: string;
}

/** Outgoing webhooks (X16-X19, docs/webhooks.md). */
export interface WebhookConfig {
  /** SSRF guard (X16): false refuses destinations in loopback, private and link-local ranges */
  allowPrivateNetworks: boolean;
  /** first retry delay; the whole schedule scales with it (X18, docs/webhooks.md) */
  retryBaseMs: number;
}

export class AppConfig {
  readonly port: number;
  readonly host: string;
  /** 0 disables the management server. */
  readonly managementPort: number;
  /** X15: where the management port listens, apart from HOST; loopback unless said otherwise. */
  readonly managementHost: string;
  readonly database: DatabaseConfig;
  readonly migrationsRun: boolean;
  /** undefined: emails are logged instead of sent (D35). */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** without a trailing slash */
  readonly portalUrl: string;
  readonly logLevel: LogLevel;
  /** undefined: pretty when the log's stream is a terminal, JSON otherwise (logging.module.ts) */
  readonly logFormat: LogFormat | undefined;
  readonly http: HttpLimits;
  /** The bound on any wait for the database: a connection, a lock, a statement (docs/operations.md). */
  readonly databaseTimeoutMs: number;
  /** CORS_ORIGINS, RATE_LIMIT_PER_MINUTE, AUTH_FAILURES_PER_MINUTE, REDIS_URL, REDIS_KEY_PREFIX */
  readonly edge: EdgeProtection;
  /** X16, X18: WEBHOOK_ALLOW_PRIVATE_NETWORKS, WEBHOOK_RETRY_BASE_MS */
  readonly webhooks: WebhookConfig;

  /** From variables already validated (validateEnvironment); AppConfig.fromEnv does both steps. */
  constructor(env: EnvironmentVariables) {
    this.port = env.PORT;
    this.host = env.HOST;
    this.managementPort = env.MANAGEMENT_PORT;
    this.managementHost = env.MANAGEMENT_HOST;
    this.database = parseDatabaseUrl(env.DATABASE_URL);
    this.migrationsRun = env.MIGRATIONS_RUN;
    this.smtpUrl = env.SMTP_URL;
    this.mailFrom = env.MAIL_FROM;
    this.portalUrl = env.PORTAL_URL.replace(/\/+$/, '');
    this.logLevel = env.LOG_LEVEL;
    this.logFormat = env.LOG_FORMAT;
    this.http = {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      maxConnections: env.HTTP_MAX_CONNECTIONS,
    };
    this.databaseTimeoutMs = env.DATABASE_TIMEOUT_MS;
    this.edge = {
      corsOrigins: env.CORS_ORIGINS,
      rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
      authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
      redisUrl: env.REDIS_URL,
      redisKeyPrefix: env.REDIS_KEY_PREFIX,
    };
    this.webhooks = {
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    };
  }

  /**
   * Validates `env` (variable name to text, as in process.env) and builds the configuration;
   * `overrides` are settings the caller fixes over the environment, already typed (the CLI's
   * db:migrate: `{ MIGRATIONS_RUN: false }`). Throws a ConfigError naming each bad variable.
   */
  static fromEnv(env: Record<string, unknown>, overrides: Partial<EnvironmentVariables> = {}): AppConfig {
    return new AppConfig({ ...validateEnvironment(env), ...overrides });
  }
}

export function parseDatabaseUrl(raw: string, variable = 'DATABASE_URL'): DatabaseConfig {
  const problem = databaseUrlProblem(raw);
  if (problem !== undefined) throw new ConfigError([{ variable, problem, value: raw }]);
  if (raw.startsWith('sqlite:')) {
    // Relative to the service's folder, not the working directory: the server and the CLI started
    // from anywhere use the same file (docs/configuration.md, DATABASE_URL).
    const path = raw.slice('sqlite:'.length);
    return {
      kind: 'sqlite',
      path: path === ':memory:' || isAbsolute(path) ? path : resolve(PROJECT_ROOT, path),
    };
  }
  const parsed = new URL(raw);
  return {
    kind: 'mysql',
    url: raw,
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
  };
}

/**
 * Which database this is, for a message an operator reads ("vendor not found in ..."): the SQLite
 * file's absolute path, or the MySQL URL without its password.
 */
export function databaseName(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return database.path === ':memory:' ? 'sqlite::memory:' : database.path;
  // host as URL.hostname gives it: an IPv6 address keeps its brackets
  return `mysql://${encodeURIComponent(database.user)}@${database.host}:${database.port}/${encodeURIComponent(database.database)}`;
}
