import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ManagementServer } from './management-server';
import { Metrics } from './metrics';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  providers: [Metrics, ManagementServer],
  exports: [Metrics, ManagementServer],
})
export class ManagementModule {}
