import { Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, TestingModule, TestingModuleBuilder } from '@nestjs/testing';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { AppModule } from '../../src/app.module';
import { ContractRecorder } from './contract';
import { AppConfig } from '../../src/config/app-config';
import { configureApi } from '../../src/bootstrap';
import { createHttpAdapter } from '../../src/shared/http/configure-http';
import { applyConnectionLimits } from '../../src/shared/http/connection-limits';
import { SharedModule } from '../../src/shared.module';
import { CreateLeadOptionUseCase } from '../../src/vendors/application/create-lead-option.use-case';
import { CreateVendorUseCase } from '../../src/vendors/application/create-vendor.use-case';

/**
 * The database every integration and e2e test uses: TEST_DATABASE_URL when set (`npm run test:mysql`
 * points it at a MariaDB database of its own), otherwise a fresh in-memory SQLite database per app.
 * On a shared MySQL database tests stay apart by creating their own vendor and unique emails.
 */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
}

export function isMysql(): boolean {
  return testDatabaseUrl().startsWith('mysql:');
}

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return AppConfig.fromEnv({
    DATABASE_URL: testDatabaseUrl(),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // JSON even when a test runs in a terminal: tests read the lines
    LOG_FORMAT: 'json',
    MANAGEMENT_PORT: '0',
    // Tests send many failed keys from one address; the X8 limit is tested where it is set (rate-limits).
    AUTH_FAILURES_PER_MINUTE: '0',
    PORTAL_URL: 'http://portal.test/app',
    MAIL_FROM: 'partners@vendor.test',
    ...env,
  });
}

export interface TestAppOptions {
  /** extra controllers mounted in the test app only (never compiled into the product) */
  controllers?: Type<unknown>[];
  /** environment variables on top of testConfig() */
  env?: Record<string, string>;
  /** further provider overrides (e.g. a fixed Clock) */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

export interface TestApp {
  app: NestFastifyApplication;
  http: TestAgent;
  /** checks every response against the OpenAPI document; its failures are thrown by close() */
  contract: ContractRecorder;
  close(): Promise<void>;
}

/** The real application (every module, real database, real HTTP edge) behind supertest. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  let builder = Test.createTestingModule({ imports: [AppModule], controllers: options.controllers ?? [] })
    .overrideProvider(AppConfig)
    .useValue(testConfig(options.env));
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createHttpAdapter(moduleRef.get(AppConfig).http),
    {
      logger: false,
      bodyParser: false,
    },
  );
  configureApi(app);
  applyConnectionLimits(app);
  const contract = new ContractRecorder();
  contract.install(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  contract.load(app);
  return {
    app,
    http: request(app.getHttpServer()),
    contract,
    close: async () => {
      await app.close();
      contract.assertClean();
    },
  };
}

let sequence = 0;

/** A string no other test (or test run on a shared database) uses. */
export function unique(prefix = 'x'): string {
  sequence += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid.toString(36)}${sequence}${Math.random().toString(36).slice(2, 6)}`;
}

/** A new vendor with an API key, created through the same use case as the CLI. */
export async function createVendor(
  app: NestFastifyApplication,
  name = 'Vendor',
): Promise<{ vendorId: number; apiKey: string }> {
  return app.get(CreateVendorUseCase).execute(`${name} ${unique()}`);
}

export async function createLeadOption(
  app: NestFastifyApplication,
  vendorId: number,
  kind: 'source' | 'status',
  label = 'Option',
): Promise<number> {
  return (await app.get(CreateLeadOptionUseCase).execute(vendorId, kind, label)).id;
}

/** ISO 8601 UTC with milliseconds, as D1 prints datetimes. */
export const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A Nest application context (no HTTP) of the given modules on the database under test, for adapter
 * tests. `override` replaces further providers (e.g. dispatcher settings).
 */
export async function createTestContext(
  modules: Type<unknown>[],
  options: Omit<TestAppOptions, 'controllers'> = {},
): Promise<TestingModule> {
  let builder = Test.createTestingModule({ imports: [SharedModule, ...modules] })
    .overrideProvider(AppConfig)
    .useValue(testConfig(options.env));
  if (options.override) builder = options.override(builder);
  const context = await builder.compile();
  context.useLogger(false);
  await context.init();
  return context;
}
