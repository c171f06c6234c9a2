import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, ConfigError, databaseName } from './app-config';
import { EnvironmentVariables } from './environment';
import { PROJECT_ROOT } from './project-root';

/** The default SQLite file: data/app.sqlite in the service's folder, wherever the process started. */
const DEFAULT_SQLITE = join(PROJECT_ROOT, 'data', 'app.sqlite');

/** A configuration from named variables, as the process would see them (a test's helper). */
const parseConfig = (env: Record<string, string>): AppConfig => AppConfig.fromEnv(env);

describe('AppConfig.fromEnv (docs/configuration.md Environment)', () => {
  it('gives a working default configuration on an empty environment', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      managementPort: 9464,
      database: { kind: 'sqlite', path: DEFAULT_SQLITE },
      migrationsRun: true,
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      portalUrl: 'http://localhost:8080', // the vendor's portal, not this API (X20)
      logLevel: 'info',
      http: { headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, maxConnections: undefined },
    });
  });

  it('resolves a relative SQLite path against the folder of package.json, not the working directory', () => {
    expect(JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).name).toBe(
      'partner-relationship-service',
    );
    const cwd = process.cwd();
    try {
      process.chdir(join(PROJECT_ROOT, 'src'));
      expect(parseConfig({ DATABASE_URL: 'sqlite:var/prm.sqlite' }).database).toEqual({
        kind: 'sqlite',
        path: join(PROJECT_ROOT, 'var', 'prm.sqlite'),
      });
      expect(parseConfig({}).database).toEqual({ kind: 'sqlite', path: DEFAULT_SQLITE });
    } finally {
      process.chdir(cwd);
    }
    expect(parseConfig({ DATABASE_URL: 'sqlite:/srv/prm/app.sqlite' }).database).toEqual({
      kind: 'sqlite',
      path: '/srv/prm/app.sqlite',
    });
    expect(parseConfig({ DATABASE_URL: 'sqlite::memory:' }).database).toEqual({
      kind: 'sqlite',
      path: ':memory:',
    });
    expect(existsSync(join(PROJECT_ROOT, 'var'))).toBe(false); // parsing creates nothing
  });

  it('names a database for an operator: the SQLite file, or the MySQL URL without its password', () => {
    expect(databaseName(parseConfig({}).database)).toBe(DEFAULT_SQLITE);
    expect(databaseName(parseConfig({ DATABASE_URL: 'sqlite::memory:' }).database)).toBe('sqlite::memory:');
    const mysql = parseConfig({ DATABASE_URL: 'mysql://app:s%40cret@db.example/prm' }).database;
    expect(databaseName(mysql)).toBe('mysql://app@db.example:3306/prm');
    expect(databaseName(mysql)).not.toContain('cret');
  });

  it('parses a mysql URL into its parts', () => {
    const config = parseConfig({ DATABASE_URL: 'mysql://app:s%40cret@db.example:3307/prm' });
    expect(config.database).toMatchObject({
      kind: 'mysql',
      host: 'db.example',
      port: 3307,
      user: 'app',
      password: 's@cret',
      database: 'prm',
    });
  });

  it.each([
    [{ DATABASE_URL: 'postgres://x' }, /DATABASE_URL must start with sqlite: or mysql:\/\//],
    [{ PORT: 'abc' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ MANAGEMENT_PORT: '-1' }, /MANAGEMENT_PORT must be a port number/],
    [{ MIGRATIONS_RUN: 'yes' }, /MIGRATIONS_RUN must be true or false/],
    [{ SMTP_URL: 'http://mail' }, /SMTP_URL must start with smtp: or smtps:/],
    [{ PORTAL_URL: 'not a url' }, /PORTAL_URL must be a URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ MAIL_FROM: 'nobody' }, /MAIL_FROM must be an email address/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '15s' }, /HTTP_HEADERS_TIMEOUT_MS must be a whole number/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '50' }, /HTTP_HEADERS_TIMEOUT_MS must be a whole number from 100/],
    [{ HTTP_REQUEST_TIMEOUT_MS: '-1' }, /HTTP_REQUEST_TIMEOUT_MS must be a whole number/],
    [
      { HTTP_REQUEST_TIMEOUT_MS: '10000' },
      /HTTP_REQUEST_TIMEOUT_MS must not be shorter than HTTP_HEADERS_TIMEOUT_MS/,
    ],
    [{ HTTP_MAX_CONNECTIONS: 'many' }, /HTTP_MAX_CONNECTIONS must be a whole number from 0/],
    [{ CORS_ORIGINS: '*' }, /CORS_ORIGINS must list origins/],
    [{ CORS_ORIGINS: 'https://app.example/' }, /CORS_ORIGINS must list origins/],
    [{ CORS_ORIGINS: 'https://app.example/path' }, /CORS_ORIGINS must list origins/],
    [{ CORS_ORIGINS: 'app.example' }, /CORS_ORIGINS must list origins/],
    [{ CORS_ORIGINS: 'ftp://app.example' }, /CORS_ORIGINS must list origins/],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, /RATE_LIMIT_PER_MINUTE must be a whole number from 0/],
    [{ RATE_LIMIT_PER_MINUTE: '1e3' }, /RATE_LIMIT_PER_MINUTE must be a whole number/],
    [{ AUTH_FAILURES_PER_MINUTE: 'lots' }, /AUTH_FAILURES_PER_MINUTE must be a whole number from 0/],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, /REDIS_URL must start with redis: or rediss:/],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL must be a URL/],
  ])('rejects %j with one line naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(message);
    try {
      parseConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('accepts MANAGEMENT_PORT=0 (disabled) and strips a trailing slash from PORTAL_URL', () => {
    const config = parseConfig({ MANAGEMENT_PORT: '0', PORTAL_URL: 'https://portal.example/app/' });
    expect(config.managementPort).toBe(0);
    expect(config.portalUrl).toBe('https://portal.example/app');
  });

  it('reads the HTTP limits: timeouts in milliseconds, a connection cap (0: none)', () => {
    const config = parseConfig({
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '500',
      HTTP_MAX_CONNECTIONS: '0',
    });
    expect(config.http).toEqual({ headersTimeoutMs: 500, requestTimeoutMs: 500, maxConnections: 0 });
    expect(parseConfig({ HTTP_MAX_CONNECTIONS: '5000' }).http.maxConnections).toBe(5000);
  });

  it('binds the management port to loopback unless MANAGEMENT_HOST says otherwise (X15)', () => {
    expect(parseConfig({}).managementHost).toBe('127.0.0.1');
    expect(parseConfig({ HOST: '0.0.0.0' }).managementHost).toBe('127.0.0.1');
    expect(parseConfig({ MANAGEMENT_HOST: '0.0.0.0' }).managementHost).toBe('0.0.0.0');
  });

  it('protects the edge by default: no CORS origin, 6000 requests per vendor and 60 failed keys per address a minute, counters in the process', () => {
    expect(parseConfig({}).edge).toEqual({
      corsOrigins: [],
      rateLimitPerMinute: 6000,
      authFailuresPerMinute: 60,
      redisUrl: undefined,
      redisKeyPrefix: 'prm:rl:',
    });
  });

  it('reads CORS_ORIGINS, the rate limits (0: off) and REDIS_URL (X6-X8)', () => {
    const config = parseConfig({
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173,',
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_FAILURES_PER_MINUTE: '5',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      REDIS_KEY_PREFIX: 'staging:',
    });
    expect(config.edge).toEqual({
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      rateLimitPerMinute: 0,
      authFailuresPerMinute: 5,
      redisUrl: 'redis://127.0.0.1:6379/2',
      redisKeyPrefix: 'staging:',
    });
  });

  it('reads the webhook settings (X16, X18): private networks refused and a 30 s retry base by default', () => {
    expect(parseConfig({}).webhooks).toEqual({ allowPrivateNetworks: false, retryBaseMs: 30_000 });
    expect(
      parseConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_BASE_MS: '1' }).webhooks,
    ).toEqual({ allowPrivateNetworks: true, retryBaseMs: 1 });
    expect(() => parseConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_NETWORKS/,
    );
    expect(() => parseConfig({ WEBHOOK_RETRY_BASE_MS: '0' })).toThrow(/WEBHOOK_RETRY_BASE_MS/);
  });
});

/**
 * Every variable of docs/configuration.md "Environment": its default, a good value and how it is
 * read, and a bad value refused with a message naming the variable.
 */
describe('each environment variable', () => {
  type Row = [
    variable: string,
    read: (config: AppConfig) => unknown,
    byDefault: unknown,
    good: string,
    readAs: unknown,
    bad: string,
    message: string,
  ];
  const rows: Row[] = [
    ['PORT', (c) => c.port, 3000, '8080', 8080, '65536', 'must be a port number from 0 to 65535'],
    ['HOST', (c) => c.host, '0.0.0.0', '127.0.0.1', '127.0.0.1', '', ''],
    [
      'MANAGEMENT_PORT',
      (c) => c.managementPort,
      9464,
      '0',
      0,
      '9464x',
      'must be a port number from 0 to 65535',
    ],
    ['MANAGEMENT_HOST', (c) => c.managementHost, '127.0.0.1', '0.0.0.0', '0.0.0.0', '', ''],
    [
      'DATABASE_URL',
      (c) => c.database,
      { kind: 'sqlite', path: DEFAULT_SQLITE },
      'sqlite::memory:',
      { kind: 'sqlite', path: ':memory:' },
      'mysql://db.example:3306/',
      'must look like mysql://user:pass@host:3306/database',
    ],
    ['MIGRATIONS_RUN', (c) => c.migrationsRun, true, '0', false, 'no', 'must be true or false'],
    [
      'SMTP_URL',
      (c) => c.smtpUrl,
      undefined,
      'smtps://u:p@mail.example:465',
      'smtps://u:p@mail.example:465',
      'mail.example:25',
      'must start with smtp: or smtps:',
    ],
    [
      'MAIL_FROM',
      (c) => c.mailFrom,
      'no-reply@localhost',
      'a@b.example',
      'a@b.example',
      'A <a@b>',
      'must be an email address',
    ],
    [
      'PORTAL_URL',
      (c) => c.portalUrl,
      'http://localhost:8080',
      'https://portal.example//',
      'https://portal.example',
      'ftp://portal.example',
      'must start with http: or https:',
    ],
    [
      'LOG_LEVEL',
      (c) => c.logLevel,
      'info',
      'trace',
      'trace',
      'INFO',
      'must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [
      'LOG_FORMAT',
      (c) => c.logFormat,
      undefined, // pretty on a terminal, else JSON (logging.module.ts)
      'pretty',
      'pretty',
      'yaml',
      'must be pretty or json',
    ],
    [
      'HTTP_HEADERS_TIMEOUT_MS',
      (c) => c.http.headersTimeoutMs,
      15_000,
      '1000',
      1000,
      '600001',
      'must be a whole number from 100 to 600000',
    ],
    [
      'HTTP_REQUEST_TIMEOUT_MS',
      (c) => c.http.requestTimeoutMs,
      30_000,
      '600000',
      600_000,
      '99',
      'must be a whole number from 100 to 600000',
    ],
    [
      'HTTP_MAX_CONNECTIONS',
      (c) => c.http.maxConnections,
      undefined,
      '0',
      0,
      '1000001',
      'must be a whole number from 0 to 1000000',
    ],
    [
      'DATABASE_TIMEOUT_MS',
      (c) => c.databaseTimeoutMs,
      5000,
      '60000',
      60_000,
      '50',
      'must be a whole number from 100 to 60000',
    ],
    [
      'RATE_LIMIT_PER_MINUTE',
      (c) => c.edge.rateLimitPerMinute,
      6000,
      '0',
      0,
      '1000000001',
      'must be a whole number from 0 to 1000000000',
    ],
    [
      'AUTH_FAILURES_PER_MINUTE',
      (c) => c.edge.authFailuresPerMinute,
      60,
      '5',
      5,
      '5.5',
      'must be a whole number from 0 to 1000000000',
    ],
    [
      'REDIS_URL',
      (c) => c.edge.redisUrl,
      undefined,
      'rediss://cache.example:6380',
      'rediss://cache.example:6380',
      'cache.example:6379',
      'must start with redis: or rediss:',
    ],
    ['REDIS_KEY_PREFIX', (c) => c.edge.redisKeyPrefix, 'prm:rl:', 'eu:', 'eu:', '', ''],
    [
      'CORS_ORIGINS',
      (c) => c.edge.corsOrigins,
      [],
      'https://app.example.com',
      ['https://app.example.com'],
      'https://app.example.com,*',
      'must list origins like https://app.example.com, comma-separated',
    ],
    [
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
      (c) => c.webhooks.allowPrivateNetworks,
      false,
      '1',
      true,
      'TRUE',
      'must be true or false',
    ],
    [
      'WEBHOOK_RETRY_BASE_MS',
      (c) => c.webhooks.retryBaseMs,
      30_000,
      '3600000',
      3_600_000,
      '3600001',
      'must be a whole number from 1 to 3600000',
    ],
  ];

  it.each(rows)(
    '%s: its default, a good value, and an empty value as unset',
    (variable, read, byDefault, good, readAs) => {
      expect(read(AppConfig.fromEnv({}))).toEqual(byDefault);
      expect(read(AppConfig.fromEnv({ [variable]: good }))).toEqual(readAs);
      expect(read(AppConfig.fromEnv({ [variable]: '' }))).toEqual(byDefault);
    },
  );

  it.each(rows.filter((row) => row[5] !== ''))(
    '%s: a bad value is refused in one line naming the variable and the value',
    (variable, _read, _default, _good, _readAs, bad, message) => {
      expect(() => AppConfig.fromEnv({ [variable]: bad })).toThrow(
        new ConfigError([{ variable, problem: message, value: bad }]),
      );
      expect(() => AppConfig.fromEnv({ [variable]: bad })).toThrow(
        `Invalid configuration: ${variable} ${message} (got ${JSON.stringify(bad)})`,
      );
    },
  );

  it('covers every variable of the environment', () => {
    expect(rows.map((row) => row[0]).sort()).toEqual(Object.keys(new EnvironmentVariables()).sort());
  });

  it('names every bad variable at once, still in one line', () => {
    expect(() => AppConfig.fromEnv({ PORT: 'abc', LOG_LEVEL: 'loud' })).toThrow(
      'Invalid configuration: PORT must be a port number from 0 to 65535 (got "abc"); ' +
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    );
  });

  it('reports the request timeout against the default header timeout, with the value it compared', () => {
    expect(() => AppConfig.fromEnv({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      'Invalid configuration: HTTP_REQUEST_TIMEOUT_MS must not be shorter than HTTP_HEADERS_TIMEOUT_MS (40000) (got "30000")',
    );
  });

  it('ignores variables it does not know', () => {
    expect(AppConfig.fromEnv({ PATH: '/bin', PORT_NUMBER: 'x' }).port).toBe(3000);
  });

  it('takes overrides the caller fixes over the environment (the CLI: db:migrate)', () => {
    expect(AppConfig.fromEnv({ MIGRATIONS_RUN: 'true' }, { MIGRATIONS_RUN: false }).migrationsRun).toBe(
      false,
    );
    expect(() => AppConfig.fromEnv({ PORT: 'x' }, { MIGRATIONS_RUN: false })).toThrow(/PORT/);
  });
});
