import { Global, Module } from '@nestjs/common';
import { AppConfigModule } from '../config/config.module';
import { Clock, SystemClock } from './domain/clock';
import { DatabaseModule } from './infrastructure/database/database.module';

/** What every module may use: configuration, the clock, the database and its UnitOfWork. */
@Global()
@Module({
  imports: [AppConfigModule, DatabaseModule],
  providers: [{ provide: Clock, useClass: SystemClock }],
  exports: [Clock, AppConfigModule, DatabaseModule],
})
export class SharedModule {}
