import { Global, Module } from '@nestjs/common';
import { AppConfigModule } from './config/config.module';
import { databaseSchema } from './database';
import { Clock, SystemClock } from './shared/domain/clock';
import { DatabaseModule } from './shared/infrastructure/database/database.module';

const database = DatabaseModule.forRoot(databaseSchema);

/**
 * What every module may use: configuration, the clock, the database with every module's schema
 * and its UnitOfWork. At the composition root, beside app.module.ts, because it is where the
 * modules are joined: the database's entities and migrations (src/database.ts).
 */
@Global()
@Module({
  imports: [AppConfigModule, database],
  providers: [{ provide: Clock, useClass: SystemClock }],
  exports: [Clock, AppConfigModule, database],
})
export class SharedModule {}
