import { Test } from '@nestjs/testing';
import { AppConfig, ConfigError } from './app-config';
import { AppConfigModule } from './config.module';

/** AppConfig as the application gets it: from process.env, each time an application is built. */
describe('AppConfigModule', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  async function build(...extra: ReturnType<typeof AppConfigModule.override>[]): Promise<AppConfig> {
    const moduleRef = await Test.createTestingModule({ imports: [AppConfigModule, ...extra] }).compile();
    return moduleRef.get(AppConfig);
  }

  it('reads the environment when the application is built, not when the module is imported', async () => {
    process.env.PORT = '4100';
    process.env.MIGRATIONS_RUN = 'true';
    const config = await build();
    expect(config.port).toBe(4100);
    expect(config.migrationsRun).toBe(true);
    process.env.PORT = '4200';
    expect((await build()).port).toBe(4200);
  });

  it('applies the overrides an entry point gives over the environment, without touching process.env', async () => {
    process.env.MIGRATIONS_RUN = 'true';
    const config = await build(AppConfigModule.override({ MIGRATIONS_RUN: false }));
    expect(config.migrationsRun).toBe(false);
    expect(process.env.MIGRATIONS_RUN).toBe('true');
  });

  it('fails to build with a ConfigError naming the variable', async () => {
    process.env.DATABASE_TIMEOUT_MS = '50';
    await expect(build()).rejects.toThrow(ConfigError);
    await expect(build()).rejects.toThrow(
      'Invalid configuration: DATABASE_TIMEOUT_MS must be a whole number from 100 to 60000 (got "50")',
    );
  });

  it('writes no default back into process.env', async () => {
    delete process.env.REDIS_KEY_PREFIX;
    await build();
    expect(process.env.REDIS_KEY_PREFIX).toBeUndefined();
  });
});
