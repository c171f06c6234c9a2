import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail';
import { VendorsModule } from '../vendors';
import { WebhooksModule } from '../webhooks';
import { AcceptInvitationUseCase } from './application/accept-invitation.use-case';
import { AddPartnerUsersUseCase } from './application/add-partner-users.use-case';
import { GetPartnerUseCase } from './application/get-partner.use-case';
import { InvitePartnerUseCase } from './application/invite-partner.use-case';
import { ListPartnerUsersUseCase } from './application/list-partner-users.use-case';
import { ListPartnersUseCase } from './application/list-partners.use-case';
import { PartnerInviter } from './application/partner-inviter';
import { PartnerEvents } from './application/partner-events';
import { ApiPartnerEvents } from './http/api-partner-events';
import { InvitationRepository } from './application/invitation-repository';
import { PartnerRepository } from './application/partner-repository';
import { PartnerUserRepository } from './application/partner-user-repository';
import { RecordPartnerUserActivityUseCase } from './application/record-partner-user-activity.use-case';
import { ReinvitePartnerUseCase } from './application/reinvite-partner.use-case';
import { InvitationsController } from './http/invitations.controller';
import { PartnerUserActivityController } from './http/partner-user-activity.controller';
import { PartnersController } from './http/partners.controller';
import { InvitationOrmEntity } from './infrastructure/invitation.orm-entity';
import { PartnerOrmEntity } from './infrastructure/partner.orm-entity';
import { PartnerUserOrmEntity } from './infrastructure/partner-user.orm-entity';
import { VendorPartnerOrmEntity } from './infrastructure/vendor-partner.orm-entity';
import { TypeOrmInvitationRepository } from './infrastructure/typeorm-invitation-repository';
import { TypeOrmPartnerRepository } from './infrastructure/typeorm-partner-repository';
import { TypeOrmPartnerUserRepository } from './infrastructure/typeorm-partner-user-repository';
import { PartnerQueries } from './infrastructure/partners.queries';
import { PartnerAccessModule } from './partner-access.module';

/**
 * Partners, partner users and the vendor connection (docs/api.md endpoints 1-4); accepting invitations
 * and recording activity (X20, X21). See README.md.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      PartnerOrmEntity,
      PartnerUserOrmEntity,
      VendorPartnerOrmEntity,
      InvitationOrmEntity,
    ]),
    MailModule,
    VendorsModule,
    // binds the shared DomainEvents port that ApiPartnerEvents publishes to (X17)
    WebhooksModule,
    PartnerAccessModule,
  ],
  controllers: [PartnersController, InvitationsController, PartnerUserActivityController],
  providers: [
    PartnerQueries,
    { provide: PartnerRepository, useClass: TypeOrmPartnerRepository },
    { provide: PartnerUserRepository, useClass: TypeOrmPartnerUserRepository },
    { provide: InvitationRepository, useClass: TypeOrmInvitationRepository },
    { provide: PartnerEvents, useClass: ApiPartnerEvents },
    PartnerInviter,
    InvitePartnerUseCase,
    ReinvitePartnerUseCase,
    AddPartnerUsersUseCase,
    ListPartnerUsersUseCase,
    AcceptInvitationUseCase,
    RecordPartnerUserActivityUseCase,
    ListPartnersUseCase,
    GetPartnerUseCase,
  ],
  exports: [PartnerAccessModule],
})
export class PartnersModule {}
