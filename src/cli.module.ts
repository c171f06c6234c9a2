import { Module } from '@nestjs/common';
import { LeadImportModule } from './leads/lead-import.module';
import { loggingModule } from './shared/logging.module';
import { SharedModule } from './shared/shared.module';
import { VendorsModule } from './vendors/vendors.module';

/** What the admin CLI needs: no HTTP, no mail dispatcher; logs on stderr. */
@Module({
  imports: [SharedModule, loggingModule('stderr'), VendorsModule, LeadImportModule],
})
export class CliModule {}
