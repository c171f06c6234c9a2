import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { PartnerUser, PartnerUserRequest } from '../domain/partner-user';
import { runRetryingConflict } from './conflict-retry';
import { assertNoDuplicateEmails, errorOfConflict } from './duplicate-emails';
import { PartnerInviter } from './partner-inviter';
import { PartnerEvents } from './partner-events';
import { PartnerRepository } from './partner-repository';
import { PartnerUserRepository } from './partner-user-repository';

/** docs/api.md endpoint 3: all or nothing (D21, D22); 404 unless connected (D25); one invite per user (D36). */
@Injectable()
export class AddPartnerUsersUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly partners: PartnerRepository,
    private readonly users: PartnerUserRepository,
    private readonly inviter: PartnerInviter,
    private readonly events: PartnerEvents,
  ) {}

  execute(vendorId: number, partnerId: number, requested: PartnerUserRequest[]): Promise<PartnerUser[]> {
    return runRetryingConflict(
      this.uow,
      async () => {
        const partner = await this.partners.findConnected(vendorId, partnerId, { forUpdate: true });
        if (!partner) throw new NotFoundError('partner');
        await assertNoDuplicateEmails(this.users, requested);
        const now = this.clock.now();
        const created = requested.map((r) => PartnerUser.register(partnerId, r, now));
        await this.users.insertAll(created);
        partner.recordInvitation(now);
        await this.partners.recordInvitedAt(partnerId, now);
        await this.inviter.invite(vendorId, partner, created);
        // X17: in the transaction that queues the invite emails
        await this.events.publish(vendorId, {
          type: 'partner.users_invited',
          partner,
          users: created,
        });
        return created;
      },
      (conflict) => errorOfConflict(conflict, requested, 'users'),
    );
  }
}
