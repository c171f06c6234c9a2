import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { InvitationToken } from '../domain/invitation';
import { PartnerUser } from '../domain/partner-user';
import { InvitationRepository } from './invitation-repository';
import { PartnerUserRepository } from './partner-user-repository';

export interface AcceptedInvitation {
  partnerId: number;
  user: PartnerUser;
}

/**
 * X20: the vendor's partner portal presents the token of an invite link. The invitation is marked
 * accepted and its user's lastActiveAt set to now, in one transaction. Unknown, another vendor's,
 * accepted, superseded and expired tokens all get the same NotFoundError (no oracle).
 */
@Injectable()
export class AcceptInvitationUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly invitations: InvitationRepository,
    private readonly users: PartnerUserRepository,
  ) {}

  execute(vendorId: number, token: string): Promise<AcceptedInvitation> {
    const tokenHash = InvitationToken.hash(token);
    return this.uow.run(async () => {
      const now = this.clock.now();
      const invitation = await this.invitations.findForVendorByTokenHash(vendorId, tokenHash);
      if (!invitation?.isAcceptableAt(now)) throw new NotFoundError('invitation');
      // Two concurrent accepts both found it acceptable: the conditional write lets only one through.
      if (!(await this.invitations.markAccepted(invitation.id, now))) throw new NotFoundError('invitation');
      const user = await this.users.findById(invitation.userId);
      if (!user) throw new Error(`user ${invitation.userId} of invitation ${invitation.id} is missing`);
      user.acceptInvitation(now);
      await this.users.saveLastActiveAt(user);
      return { partnerId: user.partnerId, user };
    });
  }
}
