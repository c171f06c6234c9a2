import { Module } from '@nestjs/common';
import { PartnerAccess } from './application/partner-access';
import { TypeOrmPartnerAccess } from './infrastructure/typeorm-partner-access';

/**
 * PartnerAccess alone, for what needs to know whether a partner is connected to a vendor without
 * the partners use cases and the mail module they bring (the CLI's lead import: no dispatcher).
 */
@Module({
  providers: [{ provide: PartnerAccess, useClass: TypeOrmPartnerAccess }],
  exports: [PartnerAccess],
})
export class PartnerAccessModule {}
