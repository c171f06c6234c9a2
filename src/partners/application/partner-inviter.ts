import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Outbox, partnerInviteMail } from '../../mail';
import { Clock } from '../../shared/domain/clock';
import { INVITATION_VALIDITY_DAYS, InvitationToken } from '../domain/invitation';
import { Partner } from '../domain/partner';
import { PartnerUser } from '../domain/partner-user';
import { InvitationRepository } from './invitation-repository';
import { VendorDirectory } from '../../vendors';

/**
 * Issues one invitation per user: a fresh single-use token (stored as its hash only) and one email
 * carrying it, queued in the outbox. Must run inside the use case's transaction (D35), so a request
 * that fails sends nothing.
 */
@Injectable()
export class PartnerInviter {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly outbox: Outbox,
    private readonly vendors: VendorDirectory,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async invite(vendorId: number, partner: Partner, users: PartnerUser[]): Promise<void> {
    if (users.length === 0) return;
    const vendorName = await this.vendors.nameOf(vendorId);
    const now = this.clock.now();
    for (const user of users) {
      const token = InvitationToken.generate();
      await this.invitations.insert({ userId: user.id, vendorId, tokenHash: token.hash, createdAt: now });
      await this.outbox.enqueue(
        partnerInviteMail({
          to: user.emailAddress,
          firstName: user.firstName,
          vendorName,
          companyName: partner.companyName,
          acceptUrl: `${this.config.portalUrl}/invitations/${token.value}`,
          validForDays: INVITATION_VALIDITY_DAYS,
        }),
      );
    }
  }
}
