import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { normalizeEmail } from '../../shared/domain/email';
import { PartnerInviter } from './partner-inviter';
import { PartnerEvents } from './partner-events';
import { PartnerRepository } from './partner-repository';
import { PartnerUserRepository } from './partner-user-repository';

/** docs/api.md endpoint 2 (D23, D25, D40): one new invite email to that one user; invitedAt = now. */
@Injectable()
export class ReinvitePartnerUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly partners: PartnerRepository,
    private readonly users: PartnerUserRepository,
    private readonly inviter: PartnerInviter,
    private readonly events: PartnerEvents,
  ) {}

  execute(vendorId: number, partnerId: number, emailAddress: string): Promise<void> {
    return this.uow.run(async () => {
      const partner = await this.partners.findConnected(vendorId, partnerId, { forUpdate: true });
      if (!partner) throw new NotFoundError('partner');
      // D40: any user of the partner, whichever vendor invited it.
      const user = await this.users.findInPartnerByEmail(partnerId, normalizeEmail(emailAddress));
      if (!user)
        throw new NotFoundError(
          'partner user',
          'emailAddress',
          'no user of this partner has this email address',
        );
      const now = this.clock.now();
      partner.recordInvitation(now);
      await this.partners.recordInvitedAt(partnerId, now);
      await this.inviter.invite(vendorId, partner, [user]);
      // X17: in the transaction that queues the email; the partner as it now stands (invitedAt = now)
      await this.events.publish(vendorId, {
        type: 'partner.reinvited',
        partner,
        emailAddress: user.emailAddress,
      });
    });
  }
}
