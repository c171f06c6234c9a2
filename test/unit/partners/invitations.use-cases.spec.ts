import { ACTIVITY_REFRESH_MS, PartnerUser } from '../../../src/partners/domain/partner-user';
import { INVITATION_VALIDITY_MS } from '../../../src/partners/domain/invitation';
import { NotFoundError } from '../../../src/shared/domain/domain-error';
import { partnersSetup } from './setup';

const notFound = new NotFoundError('invitation');

describe('AcceptInvitationUseCase (X20)', () => {
  async function invited() {
    const t = partnersSetup();
    const [vendor, other] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner, users } = await t.seed.partner([vendor, other]);
    const user = users[0]!;
    const token = await t.seed.invitation(vendor, user.id);
    return { t, vendor, other, partner, user, token };
  }

  it("marks the invitation accepted and sets the user's lastActiveAt to now", async () => {
    const { t, vendor, partner, user, token } = await invited();
    const now = t.clock.advance(3_600_000);
    const accepted = await t.accept.execute(vendor, token);
    expect({ ...accepted, user: accepted.user.snapshot() }).toEqual({
      partnerId: partner.id,
      user: { ...user.snapshot(), lastActiveAt: now },
    });
    expect((await t.users.findById(user.id))!.lastActiveAt).toEqual(now);
    expect(t.invitations.table.all()[0]!.acceptedAt).toEqual(now);
  });

  it('sets lastActiveAt even when it was set less than 24 hours ago: an acceptance is never skipped', async () => {
    const { t, vendor, user, token } = await invited();
    const active = PartnerUser.restore({ ...user.snapshot(), lastActiveAt: t.clock.now() });
    await t.uow.run(() => t.users.saveLastActiveAt(active));
    const now = t.clock.advance(1_000);
    expect((await t.accept.execute(vendor, token)).user.lastActiveAt).toEqual(now);
  });

  it.each([
    [
      'an unknown token',
      async (s: Awaited<ReturnType<typeof invited>>) => ({ vendor: s.vendor, token: 'x'.repeat(43) }),
    ],
    [
      "another vendor's invitation",
      async (s: Awaited<ReturnType<typeof invited>>) => ({ vendor: s.other, token: s.token }),
    ],
    [
      'an accepted one',
      async (s: Awaited<ReturnType<typeof invited>>) => {
        await s.t.accept.execute(s.vendor, s.token);
        return { vendor: s.vendor, token: s.token };
      },
    ],
    [
      'one replaced by a later invitation of the same user and vendor',
      async (s: Awaited<ReturnType<typeof invited>>) => {
        await s.t.seed.invitation(s.vendor, s.user.id);
        return { vendor: s.vendor, token: s.token };
      },
    ],
    [
      'one exactly 14 days old',
      async (s: Awaited<ReturnType<typeof invited>>) => {
        s.t.clock.advance(INVITATION_VALIDITY_MS);
        return { vendor: s.vendor, token: s.token };
      },
    ],
  ])('is the same not found for %s, and changes nothing', async (_name, arrange) => {
    const s = await invited();
    const { vendor, token } = await arrange(s);
    const user = await s.t.users.findById(s.user.id);
    const invitations = s.t.invitations.table.all();
    await expect(s.t.accept.execute(vendor, token)).rejects.toEqual(notFound);
    expect(await s.t.users.findById(s.user.id)).toEqual(user);
    expect(s.t.invitations.table.all()).toEqual(invitations);
  });

  it('accepts a token one millisecond before it expires', async () => {
    const { t, vendor, token } = await invited();
    t.clock.advance(INVITATION_VALIDITY_MS - 1);
    await expect(t.accept.execute(vendor, token)).resolves.toMatchObject({
      user: { lastActiveAt: t.clock.now() },
    });
  });

  it('lets only one of two concurrent accepts of one token through', async () => {
    const { t, vendor, token } = await invited();
    const results = await Promise.allSettled([
      t.accept.execute(vendor, token),
      t.accept.execute(vendor, token),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('an earlier token for another vendor stays valid after a reinvite for this one', async () => {
    const { t, vendor, other, user, token } = await invited();
    const otherToken = await t.seed.invitation(other, user.id);
    await t.seed.invitation(vendor, user.id);
    await expect(t.accept.execute(other, otherToken)).resolves.toMatchObject({ user: { id: user.id } });
    await expect(t.accept.execute(vendor, token)).rejects.toEqual(notFound);
  });
});

describe('RecordPartnerUserActivityUseCase (X21)', () => {
  async function withUser() {
    const t = partnersSetup();
    const [vendor, other] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner, users } = await t.seed.partner([vendor]);
    return { t, vendor, other, partner, user: users[0]! };
  }

  it('sets lastActiveAt to now when it is null', async () => {
    const { t, vendor, partner, user } = await withUser();
    const now = t.clock.now();
    expect((await t.recordActivity.execute(vendor, partner.id, user.id)).snapshot()).toEqual({
      ...user.snapshot(),
      lastActiveAt: now,
    });
    expect((await t.users.findById(user.id))!.lastActiveAt).toEqual(now);
  });

  it('moves it at most once per 24 hours: not at 23:59:59.999, again at exactly 24:00:00.000', async () => {
    const { t, vendor, partner, user } = await withUser();
    const first = t.clock.now();
    await t.recordActivity.execute(vendor, partner.id, user.id);
    t.clock.advance(ACTIVITY_REFRESH_MS - 1);
    expect((await t.recordActivity.execute(vendor, partner.id, user.id)).lastActiveAt).toEqual(first);
    expect((await t.users.findById(user.id))!.lastActiveAt).toEqual(first);
    const later = t.clock.advance(1);
    expect((await t.recordActivity.execute(vendor, partner.id, user.id)).lastActiveAt).toEqual(later);
    expect((await t.users.findById(user.id))!.lastActiveAt).toEqual(later);
  });

  it("is not found for another vendor's partner (D25) and for a user of another partner", async () => {
    const { t, vendor, other, partner, user } = await withUser();
    await expect(t.recordActivity.execute(other, partner.id, user.id)).rejects.toEqual(
      new NotFoundError('partner'),
    );
    const { partner: second, users } = await t.seed.partner([vendor]);
    await expect(t.recordActivity.execute(vendor, partner.id, users[0]!.id)).rejects.toEqual(
      new NotFoundError('partner user'),
    );
    await expect(t.recordActivity.execute(vendor, second.id, user.id)).rejects.toEqual(
      new NotFoundError('partner user'),
    );
    expect((await t.users.findById(user.id))!.lastActiveAt).toBeNull();
  });
});
