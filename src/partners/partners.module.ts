import { Module } from '@nestjs/common';
import { PartnerAccess } from './application/partner-access';
import { TypeOrmPartnerAccess } from './infrastructure/typeorm-partner-access';

/** Partners, partner users and the vendor connection (api.md endpoints 1-4). */
@Module({
  providers: [{ provide: PartnerAccess, useClass: TypeOrmPartnerAccess }],
  exports: [PartnerAccess],
})
export class PartnersModule {}
