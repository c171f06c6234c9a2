import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PartnerAccessModule } from '../partners';
import { VendorsModule } from '../vendors';
import { ImportLeadsUseCase, LeadImportSettings } from './application/import-leads.use-case';
import { LeadHistory } from './application/lead-history';
import { LeadBatchWriter } from './application/lead-batch-writer';
import { LeadRequestValidator } from './application/lead-request-validator';
import { ClassValidatorLeadRequestValidator } from './http/class-validator-lead-request-validator';
import { LeadHistoryOrmEntity } from './infrastructure/lead-history.orm-entity';
import { LeadOrmEntity } from './infrastructure/lead.orm-entity';
import { LeadQueries } from './infrastructure/leads.queries';
import { TypeOrmLeadBatchWriter } from './infrastructure/typeorm-lead-batch-writer';
import { TypeOrmLeadHistory } from './infrastructure/typeorm-lead-history';

/**
 * The bulk import of leads (X13), for the admin CLI. Apart from LeadsModule so that the CLI gets
 * it without the HTTP controllers and without PartnersModule, whose MailModule would start the
 * mail dispatcher in the CLI process.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([LeadOrmEntity, LeadHistoryOrmEntity]),
    PartnerAccessModule,
    VendorsModule,
  ],
  providers: [
    LeadQueries,
    ImportLeadsUseCase,
    { provide: LeadImportSettings, useValue: new LeadImportSettings() },
    { provide: LeadBatchWriter, useClass: TypeOrmLeadBatchWriter },
    { provide: LeadHistory, useClass: TypeOrmLeadHistory },
    { provide: LeadRequestValidator, useClass: ClassValidatorLeadRequestValidator },
  ],
  exports: [ImportLeadsUseCase],
})
export class LeadImportModule {}
