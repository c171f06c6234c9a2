import { ConcurrentWriteConflict } from '../../../src/partners/application/concurrent-write-conflict';
import { DuplicateEntryError } from '../../../src/shared/domain/domain-error';
import { PartnerAggregateMother, partnersSetup, tokensSentTo } from './setup';

const M = PartnerAggregateMother;

/** What a failed call must leave behind: nothing (D21, D35, X17). */
function written(t: ReturnType<typeof partnersSetup>) {
  return {
    partners: t.partners.partners.size,
    connections: t.partners.connections.size,
    users: t.users.table.size,
    invitations: t.invitations.table.size,
    mails: t.outbox.table.size,
    events: t.webhookTables.events.size,
  };
}

describe('InvitePartnerUseCase', () => {
  describe('a new partner (D19)', () => {
    it('without users: creates the partner, connected to the vendor, with the contact as its one user', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor();
      const profile = M.profile({ contactName: 'Carla Maria Contact' });
      const now = t.clock.now();
      const result = await t.invite.execute(vendor, { profile, users: null });

      expect(result.partner.snapshot()).toEqual({
        ...profile,
        id: result.partner.id,
        invitedAt: now,
        createdAt: now,
      });
      expect(await t.partnerAccess.isConnected(vendor, result.partner.id)).toBe(true);
      expect(result.users.map((u) => u.snapshot())).toEqual([
        {
          id: expect.any(Number),
          partnerId: result.partner.id,
          firstName: 'Carla Maria Contact',
          lastName: null,
          emailAddress: profile.contactEmailAddress,
          phoneNumber: null,
          jobTitle: null,
          lastActiveAt: null,
          createdAt: now,
        },
      ]);
      expect(t.users.ofPartner(result.partner.id)).toEqual(result.users.map((u) => u.snapshot()));
    });

    it('with users: creates exactly those users, the contact not among them unless listed', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor();
      const users = [M.userRequest(), M.userRequest({ lastName: 'Second', jobTitle: 'CTO' })];
      const result = await t.invite.execute(vendor, { profile: M.profile(), users });
      expect(result.users.map((u) => u.emailAddress)).toEqual(users.map((u) => u.emailAddress));
      expect(result.users[1]).toMatchObject({ lastName: 'Second', jobTitle: 'CTO' });
      expect(t.users.ofPartner(result.partner.id)).toHaveLength(2);
    });

    it('queues one invite email per created user, with a single-use link under PORTAL_URL (D35, D36)', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor('Vendor Name');
      const users = [M.userRequest(), M.userRequest()];
      const { partner } = await t.invite.execute(vendor, { profile: M.profile(), users });
      expect(t.outbox.recipients()).toEqual(users.map((u) => u.emailAddress));
      expect(t.outbox.messages()[0]!.text).toContain('Vendor Name');
      expect(t.outbox.messages()[0]!.text).toContain(partner.companyName);
      for (const user of users) expect(tokensSentTo(t, user.emailAddress)).toHaveLength(1);
      // only the token's hash is stored, one invitation per user for this vendor
      const rows = t.invitations.table.all();
      expect(rows.map((r) => r.vendorId)).toEqual([vendor, vendor]);
      const token = tokensSentTo(t, users[0]!.emailAddress)[0]!;
      expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    });

    it('writes partner.invited with the partner and the created users, in the same transaction (X17)', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor();
      await t.seed.webhook(vendor);
      const { partner, users } = await t.invite.execute(vendor, { profile: M.profile(), users: null });
      const events = t.webhookTables.eventsOf(vendor);
      expect(events.map((e) => e.type)).toEqual(['partner.invited']);
      expect(events[0]!.body.data).toMatchObject({
        id: partner.id,
        companyName: partner.companyName,
        users: [{ id: users[0]!.id, emailAddress: users[0]!.emailAddress }],
      });
    });
  });

  describe('a partner that exists already (D20)', () => {
    it('connects the partner of the contact address to another vendor, returned as stored, with [] users', async () => {
      const t = partnersSetup();
      const [first, second] = [t.seed.vendor('A'), t.seed.vendor('B')];
      const original = await t.invite.execute(first, {
        profile: M.profile({ companyName: 'Original' }),
        users: null,
      });
      const contact = original.users[0]!;
      const later = t.clock.advance(60_000);

      const result = await t.invite.execute(second, {
        profile: M.profile({
          companyName: 'Ignored',
          contactEmailAddress: contact.emailAddress.toUpperCase(),
        }),
        users: null,
      });

      expect(result.partner.id).toBe(original.partner.id);
      expect(result.partner.companyName).toBe('Original');
      expect(result.partner.invitedAt).toEqual(later);
      expect(result.users).toEqual([]);
      expect(t.partners.partners.size).toBe(1);
      expect(await t.partnerAccess.isConnected(second, original.partner.id)).toBe(true);
      expect(t.partners.stored(original.partner.id)!.invitedAt).toEqual(later);
      // the existing contact user gets one invite for the new vendor
      expect(tokensSentTo(t, contact.emailAddress)).toHaveLength(2);
      expect(
        t.invitations.table
          .all()
          .filter((i) => i.vendorId === second)
          .map((i) => i.userId),
      ).toEqual([contact.id]);
    });

    it('creates only the requested users and invites each of them and the contact once', async () => {
      const t = partnersSetup();
      const [first, second] = [t.seed.vendor('A'), t.seed.vendor('B')];
      const original = await t.invite.execute(first, { profile: M.profile(), users: null });
      const contact = original.users[0]!;
      const extra = M.userRequest();
      const result = await t.invite.execute(second, {
        profile: M.profile({ contactEmailAddress: contact.emailAddress }),
        users: [extra],
      });
      expect(result.users.map((u) => [u.partnerId, u.emailAddress])).toEqual([
        [original.partner.id, extra.emailAddress],
      ]);
      expect(t.outbox.recipients().slice(1)).toEqual([contact.emailAddress, extra.emailAddress]);
    });

    it('is DUPLICATE_ENTRY on contactEmailAddress when the partner is already connected to the vendor, checked before D21', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor();
      const original = await t.invite.execute(vendor, { profile: M.profile(), users: null });
      const before = written(t);
      const taken = original.users[0]!.emailAddress;
      await expect(
        t.invite.execute(vendor, {
          profile: M.profile({ contactEmailAddress: taken }),
          users: [M.userRequest({ emailAddress: taken })],
        }),
      ).rejects.toMatchObject({
        kind: 'duplicate',
        fieldErrors: [
          {
            field: 'contactEmailAddress',
            error: 'a partner with this contact email address is already connected to the vendor',
          },
        ],
      });
      expect(written(t)).toEqual(before);
    });

    it('writes partner.invited with only the users this call created (X17)', async () => {
      const t = partnersSetup();
      const [first, second] = [t.seed.vendor('A'), t.seed.vendor('B')];
      await t.seed.webhook(second);
      const original = await t.invite.execute(first, { profile: M.profile(), users: null });
      await t.invite.execute(second, {
        profile: M.profile({ contactEmailAddress: original.users[0]!.emailAddress }),
        users: null,
      });
      expect(t.webhookTables.eventsOf(second).map((e) => [e.type, e.body.data.users])).toEqual([
        ['partner.invited', []],
      ]);
      expect(t.webhookTables.eventsOf(first)).toEqual([]);
    });
  });

  describe('taken or repeated addresses (D21): all or nothing', () => {
    it.each([
      ['taken by another partner', 'taken', 'a user with this email address already exists'],
      [
        'repeated in the list (the later occurrence)',
        'repeat',
        'this email address appears more than once in users',
      ],
    ])(
      'a users list with an address %s names users[i].emailAddress and writes nothing',
      async (_name, kind, message) => {
        const t = partnersSetup();
        const vendor = t.seed.vendor();
        const { users: existing } = await t.seed.partner([vendor]);
        const first = M.userRequest();
        const offender =
          kind === 'taken'
            ? M.userRequest({ emailAddress: existing[0]!.emailAddress.toUpperCase() })
            : M.userRequest({ emailAddress: first.emailAddress.toUpperCase() });
        const before = written(t);
        await expect(
          t.invite.execute(vendor, { profile: M.profile(), users: [first, offender, M.userRequest()] }),
        ).rejects.toEqual(new DuplicateEntryError('users[1].emailAddress', message));
        expect(written(t)).toEqual(before);
      },
    );
  });

  describe('a rollback (D35, X17)', () => {
    it('leaves no partner, user, invitation, email or event when the transaction fails at commit', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor();
      await t.seed.webhook(vendor);
      const before = written(t);
      t.uow.failNextCommit();
      await expect(t.invite.execute(vendor, { profile: M.profile(), users: null })).rejects.toThrow(
        'the commit failed',
      );
      expect(written(t)).toEqual(before);
    });
  });

  describe('a concurrent request taking an address first', () => {
    it('runs once more and answers as it would have sequentially: DUPLICATE_ENTRY naming the field (D21)', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor();
      const { partner: other } = await t.seed.partner([vendor], []);
      const wanted = M.userRequest();
      t.users.beforeNextInsert(() =>
        t.uow.commitElsewhere(() =>
          t.users.add(M.registered(other.id, t.clock.now(), { emailAddress: wanted.emailAddress })),
        ),
      );
      await expect(
        t.invite.execute(vendor, { profile: M.profile(), users: [M.userRequest(), wanted] }),
      ).rejects.toEqual(
        new DuplicateEntryError('users[1].emailAddress', 'a user with this email address already exists'),
      );
      // the winner's user is there, nothing of the loser
      expect(t.users.table.all().map((u) => u.emailAddress)).toEqual([wanted.emailAddress]);
      expect(t.partners.partners.size).toBe(1);
      expect(t.outbox.table.size).toBe(0);
    });

    it('a contact address taken meanwhile becomes a D20 connect on the second run', async () => {
      const t = partnersSetup();
      const [vendor, other] = [t.seed.vendor('A'), t.seed.vendor('B')];
      const { partner: existing } = await t.seed.partner([other], []);
      const profile = M.profile();
      t.users.beforeNextInsert(() =>
        t.uow.commitElsewhere(() =>
          t.users.add(
            M.registered(existing.id, t.clock.now(), { emailAddress: profile.contactEmailAddress }),
          ),
        ),
      );
      const result = await t.invite.execute(vendor, { profile, users: null });
      expect(result.partner.id).toBe(existing.id);
      expect(result.users).toEqual([]);
      expect(await t.partnerAccess.isConnected(vendor, existing.id)).toBe(true);
      expect(t.outbox.recipients()).toEqual([profile.contactEmailAddress]);
    });

    it('a second conflict in a row is DUPLICATE_ENTRY, never the raw conflict', async () => {
      const t = partnersSetup();
      const vendor = t.seed.vendor();
      const profile = M.profile();
      const conflict = async () => {
        throw new ConcurrentWriteConflict('someone@partner.test');
      };
      t.users.insertAll = conflict;
      await expect(t.invite.execute(vendor, { profile, users: null })).rejects.toEqual(
        new DuplicateEntryError('contactEmailAddress', 'the email address was taken by a concurrent request'),
      );
      expect(t.partners.partners.size).toBe(0);
    });
  });
});
