/**
 * Typed configuration, parsed once from the environment (docs/configuration.md "Environment").
 * This is the only file that knows the variable names; everything else receives an AppConfig.
 */
export type DatabaseConfig =
  | { kind: 'sqlite'; path: string } // path ':memory:' for an in-memory database
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
 * Bounds on what a client may hold on the public port (README "Operations"): how long the request
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
 * Protection of the public port against abuse (README "Operations"): browser origins allowed to call
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

export const DEFAULT_EDGE_PROTECTION: EdgeProtection = {
  corsOrigins: [],
  rateLimitPerMinute: 6000,
  authFailuresPerMinute: 60,
  redisUrl: undefined,
  redisKeyPrefix: 'prm:rl:',
};

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class AppConfig {
  constructor(
    readonly port: number,
    readonly host: string,
    /** 0 disables the management server. */
    readonly managementPort: number,
    readonly database: DatabaseConfig,
    readonly migrationsRun: boolean,
    /** undefined: emails are logged instead of sent (D35). */
    readonly smtpUrl: string | undefined,
    readonly mailFrom: string,
    readonly portalUrl: string,
    readonly logLevel: LogLevel,
    readonly http: HttpLimits = DEFAULT_HTTP_LIMITS,
    /** The bound on any wait for the database: a connection, a lock, a statement (docs/operations.md). */
    readonly databaseTimeoutMs: number = 5000,
    /** X15: where the management port listens, apart from HOST; loopback unless said otherwise. */
    readonly managementHost: string = '127.0.0.1',
    /** CORS_ORIGINS, RATE_LIMIT_PER_MINUTE, AUTH_FAILURES_PER_MINUTE, REDIS_URL */
    readonly edge: EdgeProtection = DEFAULT_EDGE_PROTECTION,
    /** X16, X18: WEBHOOK_ALLOW_PRIVATE_NETWORKS, WEBHOOK_RETRY_BASE_MS */
    readonly webhooks: WebhookConfig = DEFAULT_WEBHOOK_CONFIG,
  ) {}
}

/** Outgoing webhooks (X16-X19, docs/webhooks.md). */
export interface WebhookConfig {
  /** SSRF guard (X16): false refuses destinations in loopback, private and link-local ranges */
  allowPrivateNetworks: boolean;
  /** first retry delay; the whole schedule scales with it (X18, docs/webhooks.md) */
  retryBaseMs: number;
}

export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = {
  allowPrivateNetworks: false,
  retryBaseMs: 30_000,
};


/** A configuration value that cannot be used; the message names the variable and fits on one line. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string, value: string) {
    super(`Invalid configuration: ${variable} ${problem} (got ${JSON.stringify(value)})`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 30_000,
  maxConnections: undefined,
};

type Env = Record<string, unknown>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === null) return undefined;
  const text = String(value);
  return text === '' ? undefined : text;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(name, 'must be a port number from 0 to 65535', raw);
  }
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, 'must be true or false', raw);
}

function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (${protocols.join(', ')})`, raw);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.join(' or ')}`, raw);
  }
  return raw;
}

function integer(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}`, raw);
  }
  return Number(raw);
}

function httpLimits(env: Env): HttpLimits {
  const headersTimeoutMs =
    integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 100, 600_000) ?? DEFAULT_HTTP_LIMITS.headersTimeoutMs;
  const requestTimeoutMs =
    integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 100, 600_000) ?? DEFAULT_HTTP_LIMITS.requestTimeoutMs;
  // Node enforces neither timeout when the headers may take longer than the whole request.
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      'HTTP_REQUEST_TIMEOUT_MS',
      `must not be shorter than HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs})`,
      String(requestTimeoutMs),
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnections: integer(env, 'HTTP_MAX_CONNECTIONS', 0, 1_000_000),
  };
}

/** `https://app.example.com, http://localhost:5173`: each an origin exactly as a browser sends it. */
function origins(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((origin) => {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
        throw new ConfigError(name, 'must list origins like https://app.example.com, comma-separated', raw);
      }
      return origin;
    });
}

function edgeProtection(env: Env): EdgeProtection {
  return {
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    rateLimitPerMinute:
      integer(env, 'RATE_LIMIT_PER_MINUTE', 0, 1_000_000_000) ?? DEFAULT_EDGE_PROTECTION.rateLimitPerMinute,
    authFailuresPerMinute:
      integer(env, 'AUTH_FAILURES_PER_MINUTE', 0, 1_000_000_000) ??
      DEFAULT_EDGE_PROTECTION.authFailuresPerMinute,
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    redisKeyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? DEFAULT_EDGE_PROTECTION.redisKeyPrefix,
  };
}

export function parseDatabaseUrl(raw: string, variable = 'DATABASE_URL'): DatabaseConfig {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError(variable, 'needs a file path after sqlite:', raw);
    return { kind: 'sqlite', path };
  }
  if (raw.startsWith('mysql://')) {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(variable, 'is not a valid mysql:// URL', raw);
    }
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    if (!parsed.hostname || database === '' || database.includes('/')) {
      throw new ConfigError(variable, 'must look like mysql://user:pass@host:3306/database', raw);
    }
    return {
      kind: 'mysql',
      url: raw,
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : 3306,
      user: decodeURIComponent(parsed.username) || 'root',
      password: decodeURIComponent(parsed.password),
      database,
    };
  }
  throw new ConfigError(variable, 'must start with sqlite: or mysql://', raw);
}

export function parseConfig(env: Env): AppConfig {
  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`, logLevel);
  }
  const mailFrom = read(env, 'MAIL_FROM') ?? 'no-reply@localhost';
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(mailFrom)) {
    throw new ConfigError('MAIL_FROM', 'must be an email address', mailFrom);
  }
  const host = read(env, 'HOST') ?? '0.0.0.0';
  return new AppConfig(
    port(env, 'PORT', 3000),
    host,
    port(env, 'MANAGEMENT_PORT', 9464),
    parseDatabaseUrl(read(env, 'DATABASE_URL') ?? 'sqlite:data/app.sqlite'),
    bool(env, 'MIGRATIONS_RUN', true),
    url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']),
    mailFrom,
    // The vendor's partner portal serves the accept link (X20), not this API: a local portal by default.
    url(env, 'PORTAL_URL', 'http://localhost:8080', ['http:', 'https:'])!.replace(/\/+$/, ''),
    logLevel,
    httpLimits(env),
    integer(env, 'DATABASE_TIMEOUT_MS', 100, 60_000) ?? 5000,
    read(env, 'MANAGEMENT_HOST') ?? '127.0.0.1',
    edgeProtection(env),
    {
      allowPrivateNetworks: bool(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', DEFAULT_WEBHOOK_CONFIG.allowPrivateNetworks),
      retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 1, 3_600_000) ?? DEFAULT_WEBHOOK_CONFIG.retryBaseMs,
    },
  );
}
