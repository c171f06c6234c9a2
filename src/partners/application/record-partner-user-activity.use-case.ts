import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { PartnerUser } from '../domain/partner-user';
import { PartnerAccess } from './partner-access';
import { PartnerUserRepository } from './partner-user-repository';

/**
 * X21: the vendor's partner portal reports that a user was active. The domain decides whether
 * lastActiveAt moves (at most once per 24 hours); nothing is written when it does not. 404 as D25:
 * a partner not connected to the caller's vendor, or a user not of that partner.
 */
@Injectable()
export class RecordPartnerUserActivityUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly access: PartnerAccess,
    private readonly users: PartnerUserRepository,
  ) {}

  execute(vendorId: number, partnerId: number, userId: number): Promise<PartnerUser> {
    return this.uow.run(async () => {
      if (!(await this.access.isConnected(vendorId, partnerId))) throw new NotFoundError('partner');
      // locked: a concurrent report waits, then sees the time this one wrote and writes nothing
      const user = await this.users.lockInPartner(partnerId, userId);
      if (!user) throw new NotFoundError('partner user');
      if (user.recordActivity(this.clock.now())) await this.users.saveLastActiveAt(user);
      return user;
    });
  }
}
