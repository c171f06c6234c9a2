import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactsModule } from '../contacts';
import { PartnersModule } from '../partners';
import { VendorsModule } from '../vendors';
import { WebhooksModule } from '../webhooks';
import { LeadOptionCheck } from './application/lead-option-check';
import { LeadOptionInputCheck } from './http/lead-option.input-check';
import { LeadHistory } from './application/lead-history';
import { GetLeadHistoryUseCase } from './application/get-lead-history.use-case';
import { GetLeadUseCase } from './application/get-lead.use-case';
import { ListLeadsUseCase } from './application/list-leads.use-case';
import { LeadRepository } from './application/lead-repository';
import { ApproveLeadUseCase } from './application/approve-lead.use-case';
import { ArchiveLeadUseCase } from './application/archive-lead.use-case';
import { RejectLeadUseCase } from './application/reject-lead.use-case';
import { LeadViews } from './application/lead-views';
import { LeadEvents } from './application/lead-events';
import { ApiLeadEvents } from './http/api-lead-events';
import { CreateLeadUseCase } from './application/create-lead.use-case';
import { ReplaceLeadUseCase } from './application/replace-lead.use-case';
import { UpdateLeadUseCase } from './application/update-lead.use-case';
import { LeadsController, PartnerLeadsController } from './http/leads.controller';
import { LeadHistoryOrmEntity } from './infrastructure/lead-history.orm-entity';
import { LeadOrmEntity } from './infrastructure/lead.orm-entity';
import { LeadQueries } from './infrastructure/leads.queries';
import { TypeOrmLeadHistory } from './infrastructure/typeorm-lead-history';
import { TypeOrmLeadRepository } from './infrastructure/typeorm-lead-repository';

/** Leads of a partner, their approval state machine and their history (docs/api.md endpoints 5-12, X12). */
@Module({
  imports: [
    TypeOrmModule.forFeature([LeadOrmEntity, LeadHistoryOrmEntity]),
    PartnersModule,
    VendorsModule,
    ContactsModule,
    // binds the shared DomainEvents port that ApiLeadEvents publishes to (X17)
    WebhooksModule,
  ],
  controllers: [PartnerLeadsController, LeadsController],
  providers: [
    LeadQueries,
    { provide: LeadRepository, useClass: TypeOrmLeadRepository },
    { provide: LeadHistory, useClass: TypeOrmLeadHistory },
    { provide: LeadEvents, useClass: ApiLeadEvents },
    LeadViews,
    LeadOptionCheck,
    LeadOptionInputCheck,
    CreateLeadUseCase,
    ReplaceLeadUseCase,
    UpdateLeadUseCase,
    GetLeadUseCase,
    GetLeadHistoryUseCase,
    ListLeadsUseCase,
    ApproveLeadUseCase,
    RejectLeadUseCase,
    ArchiveLeadUseCase,
  ],
})
export class LeadsModule {}
