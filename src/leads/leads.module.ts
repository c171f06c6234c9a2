import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactsModule } from '../contacts/contacts.module';
import { PartnersModule } from '../partners/partners.module';
import { VendorsModule } from '../vendors/vendors.module';
import { LeadOptionCheck } from './application/lead-option-check';
import { LeadOptionInputCheck } from './http/lead-option.input-check';
import { GetLeadUseCase, ListLeadsUseCase } from './application/lead-read.use-cases';
import { LeadRepository } from './application/lead-repository';
import {
  ApproveLeadUseCase,
  ArchiveLeadUseCase,
  RejectLeadUseCase,
} from './application/lead-state.use-cases';
import { LeadViews } from './application/lead-views';
import { CreateLeadUseCase, ReplaceLeadUseCase, UpdateLeadUseCase } from './application/lead-write.use-cases';
import { LeadsController, PartnerLeadsController } from './http/leads.controller';
import { LeadOrmEntity } from './infrastructure/lead.orm-entity';
import { TypeOrmLeadRepository } from './infrastructure/typeorm-lead.repository';

/** Leads of a partner and their approval state machine (docs/api.md endpoints 5-12). */
@Module({
  imports: [TypeOrmModule.forFeature([LeadOrmEntity]), PartnersModule, VendorsModule, ContactsModule],
  controllers: [PartnerLeadsController, LeadsController],
  providers: [
    { provide: LeadRepository, useClass: TypeOrmLeadRepository },
    LeadViews,
    LeadOptionCheck,
    LeadOptionInputCheck,
    CreateLeadUseCase,
    ReplaceLeadUseCase,
    UpdateLeadUseCase,
    GetLeadUseCase,
    ListLeadsUseCase,
    ApproveLeadUseCase,
    RejectLeadUseCase,
    ArchiveLeadUseCase,
  ],
})
export class LeadsModule {}
