// The partners module's use cases, built over in-memory adapters (the one place their paths are named).
import { AcceptInvitationUseCase } from '../../../src/partners/application/accept-invitation.use-case';
import { AddPartnerUsersUseCase } from '../../../src/partners/application/add-partner-users.use-case';
import { GetPartnerUseCase } from '../../../src/partners/application/get-partner.use-case';
import { InvitePartnerUseCase } from '../../../src/partners/application/invite-partner.use-case';
import { ListPartnerUsersUseCase } from '../../../src/partners/application/list-partner-users.use-case';
import { ListPartnersUseCase } from '../../../src/partners/application/list-partners.use-case';
import { PartnerInviter } from '../../../src/partners/application/partner-inviter';
import { RecordPartnerUserActivityUseCase } from '../../../src/partners/application/record-partner-user-activity.use-case';
import { ReinvitePartnerUseCase } from '../../../src/partners/application/reinvite-partner.use-case';
import { InvitationToken } from '../../../src/partners/domain/invitation';
import { Partner } from '../../../src/partners/domain/partner';
import { PartnerUser, PartnerUserRequest } from '../../../src/partners/domain/partner-user';
import { InMemoryAdapters, PORTAL_URL, inMemoryAdapters } from '../../support/in-memory';
import { PartnerAggregateMother } from '../../support/partner-aggregate-mother';

export { InvitationToken, PartnerAggregateMother, PORTAL_URL };

export function partnersSetup() {
  const a = inMemoryAdapters();
  const inviter = new PartnerInviter(a.invitations, a.outbox, a.vendorDirectory, a.config, a.clock);
  const useCases = {
    inviter,
    invite: new InvitePartnerUseCase(
      a.uow,
      a.clock,
      a.partners,
      a.partnerAccess,
      a.users,
      inviter,
      a.partnerEvents,
    ),
    addUsers: new AddPartnerUsersUseCase(a.uow, a.clock, a.partners, a.users, inviter, a.partnerEvents),
    reinvite: new ReinvitePartnerUseCase(a.uow, a.clock, a.partners, a.users, inviter, a.partnerEvents),
    accept: new AcceptInvitationUseCase(a.uow, a.clock, a.invitations, a.users),
    recordActivity: new RecordPartnerUserActivityUseCase(a.uow, a.clock, a.partnerAccess, a.users),
    getPartner: new GetPartnerUseCase(a.uow, a.partners),
    listPartners: new ListPartnersUseCase(a.uow, a.partners),
    listUsers: new ListPartnerUsersUseCase(a.uow, a.partnerAccess, a.users),
  };
  return { ...a, ...useCases, seed: seeding(a) };
}

/** Arranging a test: state written straight through the adapters, committed. */
export function seeding(a: InMemoryAdapters) {
  return {
    vendor(name = 'Acme'): number {
      return a.vendors.add(name);
    },

    /** A stored partner connected to each vendor given, with these users. */
    async partner(
      vendorIds: number[],
      users: Partial<PartnerUserRequest>[] = [{}],
    ): Promise<{ partner: Partner; users: PartnerUser[] }> {
      return a.uow.run(async () => {
        const now = a.clock.now();
        const partner = await a.partners.insert(PartnerAggregateMother.invited(now));
        for (const vendorId of vendorIds) await a.partners.connect(vendorId, partner, now);
        const created = await a.users.insertAll(
          users.map((u) => PartnerUser.register(partner.id, PartnerAggregateMother.userRequest(u), now)),
        );
        return { partner, users: created };
      });
    },

    /** An invitation with a known token for a stored user. */
    async invitation(vendorId: number, userId: number, createdAt = a.clock.now()): Promise<string> {
      const token = InvitationToken.generate();
      await a.uow.run(() => a.invitations.insert({ userId, vendorId, tokenHash: token.hash, createdAt }));
      return token.value;
    },

    /** A webhook endpoint of the vendor subscribed to every event. */
    async webhook(vendorId: number, events = ['*']): Promise<number> {
      const endpoint = await a.webhookEndpoints.add({
        vendorId,
        url: 'https://hooks.example.com/in',
        events,
        description: null,
        secret: 'whsec_AAAA',
        createdAt: a.clock.now(),
        disabledAt: null,
      });
      return endpoint.id;
    },
  };
}

/** The accept-link token of every queued invite email to `to`, oldest first (D36). */
export function tokensSentTo(a: InMemoryAdapters, to: string): string[] {
  const link = new RegExp(`${PORTAL_URL}/invitations/([A-Za-z0-9_-]{43})`);
  return a.outbox
    .messages()
    .filter((m) => m.to.toLowerCase() === to.toLowerCase())
    .map((m) => {
      const token = link.exec(m.text)?.[1];
      if (!token) throw new Error(`no accept link in the email to ${to}`);
      return token;
    });
}
