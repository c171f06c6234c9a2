import { ConfigError, parseConfig } from './app-config';

describe('parseConfig (docs/configuration.md Environment)', () => {
  it('gives a working default configuration on an empty environment', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      managementPort: 9464,
      database: { kind: 'sqlite', path: 'data/app.sqlite' },
      migrationsRun: true,
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      portalUrl: 'http://localhost:8080', // the vendor's portal, not this API (X20)
      logLevel: 'info',
      http: { headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, maxConnections: undefined },
    });
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
    expect(() => parseConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
    expect(() => parseConfig({ WEBHOOK_RETRY_BASE_MS: '0' })).toThrow(/WEBHOOK_RETRY_BASE_MS/);
  });
});

