import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { DuplicateEntryError } from '../../shared/domain/domain-error';
import { normalizeEmail } from '../../shared/domain/email';
import { Partner, PartnerProfile } from '../domain/partner';
import { initialUsers, PartnerUser, PartnerUserRequest } from '../domain/partner-user';
import { runRetryingConflict } from './conflict-retry';
import { assertNoDuplicateEmails, errorOfConflict } from './duplicate-emails';
import { PartnerInviter } from './partner-inviter';
import { PartnerEvents } from './partner-events';
import { PartnerAccess } from './partner-access';
import { PartnerRepository } from './partner-repository';
import { PartnerUserRepository } from './partner-user-repository';

export interface InvitePartnerInput {
  profile: PartnerProfile;
  /** null when the request omitted users or sent null (D19) */
  users: PartnerUserRequest[] | null;
}

export interface InvitePartnerResult {
  partner: Partner;
  /** the users this call created (D20: `[]` when it only connected an existing partner without users) */
  users: PartnerUser[];
}

/** docs/api.md endpoint 1 (D19-D22, D35, D36). */
@Injectable()
export class InvitePartnerUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly partners: PartnerRepository,
    private readonly access: PartnerAccess,
    private readonly users: PartnerUserRepository,
    private readonly inviter: PartnerInviter,
    private readonly events: PartnerEvents,
  ) {}

  execute(vendorId: number, input: InvitePartnerInput): Promise<InvitePartnerResult> {
    return runRetryingConflict(
      this.uow,
      () => this.invite(vendorId, input),
      (conflict) => errorOfConflict(conflict, input.users, 'contactEmailAddress'),
    );
  }

  private async invite(vendorId: number, input: InvitePartnerInput): Promise<InvitePartnerResult> {
    const now = this.clock.now();
    const contactUser = await this.users.findByEmail(normalizeEmail(input.profile.contactEmailAddress));
    if (contactUser) return this.connectExisting(vendorId, contactUser, input.users ?? [], now);

    // D19: a new partner, connected to the vendor, with its initial users, each invited once.
    const requested = initialUsers(input.profile, input.users);
    // Without a users list the only user is the contact, just found free; should a concurrent request
    // take it now, the unique index answers and the retry reports contactEmailAddress, not users[0].
    if (input.users !== null) await assertNoDuplicateEmails(this.users, requested);
    const partner = Partner.invite(input.profile, now);
    await this.partners.insert(partner);
    await this.partners.connect(vendorId, partner, now);
    const created = requested.map((r) => PartnerUser.register(partner.id, r, now));
    await this.users.insertAll(created);
    await this.inviter.invite(vendorId, partner, created);
    // X17: in the transaction that queues the invite emails
    await this.events.publish(vendorId, { type: 'partner.invited', partner, users: created });
    return { partner, users: created };
  }

  /**
   * D20: the contact address belongs to a user of partner P. P is connected to this vendor (unless it
   * already is: DUPLICATE_ENTRY) and returned as stored; only the requested users are created. The
   * contact user gets one invite for this vendor, each created user one.
   */
  private async connectExisting(
    vendorId: number,
    contactUser: PartnerUser,
    requested: PartnerUserRequest[],
    now: Date,
  ): Promise<InvitePartnerResult> {
    if (await this.access.isConnected(vendorId, contactUser.partnerId)) {
      throw new DuplicateEntryError(
        'contactEmailAddress',
        'a partner with this contact email address is already connected to the vendor',
      );
    }
    await assertNoDuplicateEmails(this.users, requested);
    const stored = await this.partners.findById(contactUser.partnerId, { forUpdate: true });
    if (!stored) throw new Error(`partner ${contactUser.partnerId} of user ${contactUser.id} is missing`);
    await this.partners.connect(vendorId, stored, now);
    const created = requested.map((r) => PartnerUser.register(stored.id, r, now));
    await this.users.insertAll(created);
    const partner = stored;
    partner.recordInvitation(now);
    await this.partners.recordInvitedAt(partner.id, now);
    await this.inviter.invite(vendorId, partner, [contactUser, ...created]);
    await this.events.publish(vendorId, { type: 'partner.invited', partner, users: created });
    return { partner, users: created };
  }
}
