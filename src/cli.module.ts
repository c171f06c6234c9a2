import { Module } from '@nestjs/common';
import { LeadImportModule } from './leads';
import { loggingModule } from './shared/logging.module';
import { SharedModule } from './shared.module';
import { VendorsModule } from './vendors';

/** What the admin CLI needs: no HTTP, no mail dispatcher; logs on stderr. */
@Module({
  imports: [SharedModule, loggingModule('stderr'), VendorsModule, LeadImportModule],
})
export class CliModule {}
