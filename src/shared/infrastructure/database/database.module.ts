import { DynamicModule, Global, Inject, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule } from 'nestjs-cls';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { UnitOfWork } from '../../application/unit-of-work';
import { dataSourceOptions } from './data-source-options';
import { EngineAwareDataSource } from './engine-aware-data-source';
import { AuthLane } from './auth-lane';
import { DatabaseDialect } from './database-dialect';
import { DatabaseSchema } from './database-schema';
import { MigrationRunner } from './migration-runner';
import { TypeOrmUnitOfWork } from './typeorm-unit-of-work';

/**
 * The one data source (SQLite or MySQL, chosen by DATABASE_URL), the UnitOfWork adapter and the
 * migration runner. Pending migrations are applied while the application initialises, before the
 * HTTP server accepts a connection, when MIGRATIONS_RUN is true. The entities and migrations are
 * every module's, handed in by the composition root (`src/database.ts`): `shared/` names no module.
 */
@Global()
@Module({})
export class DatabaseModule implements OnModuleInit {
  static forRoot(schema: DatabaseSchema): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.database, config.databaseTimeoutMs),
            entities: schema.entities,
            synchronize: false,
            migrationsRun: false,
            migrations: schema.migrations,
            logging: false,
            // a database that cannot be reached at start ends the process soon, with one line (main.ts)
            retryAttempts: 2,
            retryDelay: 1000,
          }),
          dataSourceFactory: async (options) => new EngineAwareDataSource(options!),
        }),
        // Plugins only: ClsModule.forRoot would also mount a global (no-op) guard and interceptor,
        // which put every request through Nest's rxjs interceptor chain (docs/performance.md). The
        // context is opened by the UnitOfWork itself.
        ClsModule.registerPlugins([
          new ClsPluginTransactional({
            adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }),
          }),
        ]),
      ],
      providers: [
        DatabaseDialect,
        {
          provide: AuthLane,
          inject: [DataSource, AppConfig],
          useFactory: (main: DataSource, config: AppConfig) => AuthLane.open(main, config),
        },
        { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
        MigrationRunner,
      ],
      exports: [DatabaseDialect, AuthLane, UnitOfWork, MigrationRunner],
    };
  }

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly migrationRunner: MigrationRunner,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.migrationsRun) await this.migrationRunner.run();
  }
}
