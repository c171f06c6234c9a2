import { DuplicateEntryError, NotFoundError } from '../../../src/shared/domain/domain-error';
import { InvitationToken, PartnerAggregateMother, partnersSetup, tokensSentTo } from './setup';

const M = PartnerAggregateMother;

describe('AddPartnerUsersUseCase (docs/api.md endpoint 3)', () => {
  it('creates the users, invites each once, sets invitedAt and writes partner.users_invited (D36, X17)', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    await t.seed.webhook(vendor);
    const { partner } = await t.seed.partner([vendor], []);
    const now = t.clock.advance(5_000);
    const requested = [M.userRequest(), M.userRequest()];

    const created = await t.addUsers.execute(vendor, partner.id, requested);

    expect(created.map((u) => [u.partnerId, u.emailAddress, u.createdAt])).toEqual(
      requested.map((r) => [partner.id, r.emailAddress, now]),
    );
    expect(t.users.ofPartner(partner.id)).toEqual(created.map((u) => u.snapshot()));
    expect(t.partners.stored(partner.id)!.invitedAt).toEqual(now);
    expect(t.outbox.recipients()).toEqual(requested.map((r) => r.emailAddress));
    const events = t.webhookTables.eventsOf(vendor);
    expect(events.map((e) => e.type)).toEqual(['partner.users_invited']);
    expect(events[0]!.body.data).toMatchObject({
      partnerId: partner.id,
      users: created.map((u) => ({ id: u.id, emailAddress: u.emailAddress })),
    });
  });

  it("is not found for another vendor's partner, or one that does not exist, and writes nothing (D25)", async () => {
    const t = partnersSetup();
    const [vendor, other] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner } = await t.seed.partner([other], []);
    for (const partnerId of [partner.id, partner.id + 100]) {
      await expect(t.addUsers.execute(vendor, partnerId, [M.userRequest()])).rejects.toEqual(
        new NotFoundError('partner'),
      );
    }
    expect(t.users.table.size).toBe(0);
    expect(t.outbox.table.size).toBe(0);
  });

  it('refuses the whole list when one address is taken, naming the first offender (D21)', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const { partner, users } = await t.seed.partner([vendor]);
    const invitedAt = t.partners.stored(partner.id)!.invitedAt;
    await expect(
      t.addUsers.execute(vendor, partner.id, [
        M.userRequest(),
        M.userRequest({ emailAddress: users[0]!.emailAddress }),
      ]),
    ).rejects.toEqual(
      new DuplicateEntryError('users[1].emailAddress', 'a user with this email address already exists'),
    );
    expect(t.users.ofPartner(partner.id)).toEqual(users.map((u) => u.snapshot()));
    expect(t.partners.stored(partner.id)!.invitedAt).toEqual(invitedAt);
    expect(t.outbox.table.size).toBe(0);
  });

  it('rolls back the users, invitations, emails, invitedAt and event when the transaction fails (D35, X17)', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    await t.seed.webhook(vendor);
    const { partner } = await t.seed.partner([vendor], []);
    const before = t.partners.stored(partner.id);
    t.clock.advance(1_000);
    t.uow.failNextCommit();
    await expect(t.addUsers.execute(vendor, partner.id, [M.userRequest()])).rejects.toThrow(
      'the commit failed',
    );
    expect(t.users.ofPartner(partner.id)).toEqual([]);
    expect(t.partners.stored(partner.id)).toEqual(before);
    expect([t.invitations.table.size, t.outbox.table.size, t.webhookTables.events.size]).toEqual([0, 0, 0]);
  });
});

describe('ReinvitePartnerUseCase (D23, D40)', () => {
  it('sends one new invite to that user only, sets invitedAt and writes partner.reinvited (X17)', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    await t.seed.webhook(vendor);
    const { partner, users } = await t.seed.partner([vendor], [{}, {}]);
    const now = t.clock.advance(60_000);
    await t.reinvite.execute(vendor, partner.id, users[1]!.emailAddress.toUpperCase());
    expect(t.outbox.recipients()).toEqual([users[1]!.emailAddress]);
    expect(t.invitations.table.all().map((i) => [i.userId, i.vendorId])).toEqual([[users[1]!.id, vendor]]);
    expect(t.partners.stored(partner.id)!.invitedAt).toEqual(now);
    const [event] = t.webhookTables.eventsOf(vendor);
    expect(event!.type).toBe('partner.reinvited');
    expect(event!.body.data).toMatchObject({
      id: partner.id,
      invitedAt: now.toISOString(),
      emailAddress: users[1]!.emailAddress,
    });
  });

  it('reaches a user another vendor invited: users belong to the partner (D40)', async () => {
    const t = partnersSetup();
    const [first, second] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner, users } = await t.seed.partner([first, second]);
    await t.reinvite.execute(second, partner.id, users[0]!.emailAddress);
    expect(t.invitations.table.all().map((i) => i.vendorId)).toEqual([second]);
  });

  it('is not found naming emailAddress for an address that is no user of this partner (D23)', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const { partner } = await t.seed.partner([vendor]);
    const { users: elsewhere } = await t.seed.partner([vendor]);
    for (const address of ['nobody@partner.test', elsewhere[0]!.emailAddress]) {
      await expect(t.reinvite.execute(vendor, partner.id, address)).rejects.toEqual(
        new NotFoundError('partner user', 'emailAddress', 'no user of this partner has this email address'),
      );
    }
    expect(t.outbox.table.size).toBe(0);
  });

  it("is not found, without naming a field, for another vendor's partner (D25)", async () => {
    const t = partnersSetup();
    const [vendor, other] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner, users } = await t.seed.partner([other]);
    const error = await t.reinvite
      .execute(vendor, partner.id, users[0]!.emailAddress)
      .catch((e: unknown) => e);
    expect(error).toEqual(new NotFoundError('partner'));
    expect((error as NotFoundError).fieldErrors).toEqual([]);
    expect(t.outbox.table.size).toBe(0);
  });
});

describe('PartnerInviter (D35, D36)', () => {
  it('refuses to queue an invite outside a transaction, so no email can leave for a change rolled back', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const { partner, users } = await t.seed.partner([vendor]);
    await expect(t.inviter.invite(vendor, partner, users)).rejects.toThrow('inside UnitOfWork.run');
    expect(t.outbox.table.size).toBe(0);
  });

  it('issues nothing for no users', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const { partner } = await t.seed.partner([vendor], []);
    await t.uow.run(() => t.inviter.invite(vendor, partner, []));
    expect([t.invitations.table.size, t.outbox.table.size]).toEqual([0, 0]);
  });

  it('gives every user a token of its own, stored as its hash, valid for 14 days as the email says', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const { partner, users } = await t.seed.partner([vendor], [{}, {}]);
    await t.uow.run(() => t.inviter.invite(vendor, partner, users));
    const tokens = users.map((u) => tokensSentTo(t, u.emailAddress)[0]!);
    expect(new Set(tokens).size).toBe(2);
    expect(t.invitations.table.all().map((i) => i.tokenHash)).toEqual(
      tokens.map((token) => InvitationToken.hash(token)),
    );
    expect(t.outbox.messages()[0]!.text).toMatch(/14 days/);
  });
});
