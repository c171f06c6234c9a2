import { Global, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { AppConfig, parseConfig } from './app-config';

/**
 * @nestjs/config loads `.env` (if present) into the environment without overriding variables that
 * are already set; AppConfig is then parsed and validated once, when the application is built.
 * A bad value fails start-up with a ConfigError naming the variable.
 */
@Global()
@Module({
  imports: [ConfigModule.forRoot({ envFilePath: ['.env'] })],
  providers: [
    {
      provide: AppConfig,
      inject: [ConfigService], // ensures .env is loaded first
      useFactory: (): AppConfig => parseConfig(process.env),
    },
  ],
  exports: [AppConfig],
})
export class AppConfigModule {}
