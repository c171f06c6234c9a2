import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule, ConfigType, registerAs } from '@nestjs/config';
import { AppConfig } from './app-config';
import { EnvironmentVariables, validateEnvironment } from './environment';

/**
 * The validated environment as a @nestjs/config namespace. Its factory runs each time an application
 * is built, after `.env` is loaded, so a bad value fails start-up there with a ConfigError naming
 * the variable. (ConfigModule.forRoot's own `validate` option would run once, when this file is
 * imported, and write every default back into process.env.)
 */
export const environment = registerAs('environment', () => validateEnvironment(process.env));

/**
 * Settings an entry point fixes for its own run, over the environment: the admin CLI's db:migrate
 * runs without applying migrations first. Provided by AppConfigModule.override(); the server has none.
 */
export class ConfigOverrides {
  constructor(readonly values: Partial<EnvironmentVariables>) {}
}

@Module({})
class ConfigOverridesModule {}

/**
 * @nestjs/config loads `.env` (if present) into the environment without overriding variables that
 * are already set; AppConfig is built from the validated `environment` namespace, plus the entry
 * point's overrides, once per application.
 */
@Global()
@Module({
  imports: [ConfigModule.forRoot({ envFilePath: ['.env'], load: [environment] })],
  providers: [
    {
      provide: AppConfig,
      inject: [environment.KEY, { token: ConfigOverrides, optional: true }],
      useFactory: (env: ConfigType<typeof environment>, overrides?: ConfigOverrides): AppConfig =>
        new AppConfig({ ...env, ...overrides?.values }),
    },
  ],
  exports: [AppConfig],
})
export class AppConfigModule {
  /** For the root module of an entry point: `imports: [AppConfigModule.override({ MIGRATIONS_RUN: false })]`. */
  static override(values: Partial<EnvironmentVariables>): DynamicModule {
    return {
      module: ConfigOverridesModule,
      global: true,
      providers: [{ provide: ConfigOverrides, useValue: new ConfigOverrides(values) }],
      exports: [ConfigOverrides],
    };
  }
}
