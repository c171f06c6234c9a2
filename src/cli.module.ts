import { DynamicModule, Module } from '@nestjs/common';
import { AppConfigModule } from './config/config.module';
import { EnvironmentVariables } from './config/environment';
import { LeadImportModule } from './leads';
import { loggingModule } from './shared/logging.module';
import { SharedModule } from './shared.module';
import { VendorsModule } from './vendors';

/** What the admin CLI needs: no HTTP, no mail dispatcher; logs on stderr. */
@Module({
  imports: [SharedModule, loggingModule('stderr'), VendorsModule, LeadImportModule],
})
export class CliModule {
  /** The CLI for one command, with the settings it fixes over the environment (CliCommand.config). */
  static forCommand(config: Partial<EnvironmentVariables> = {}): DynamicModule {
    return { module: CliModule, imports: [AppConfigModule.override(config)] };
  }
}
