import { ACTIVITY_REFRESH_MS, PartnerUser } from './partner-user';

const user = (lastActiveAt: string | null): PartnerUser =>
  PartnerUser.restore({
    id: 4,
    partnerId: 2,
    firstName: 'Ann',
    lastName: null,
    emailAddress: 'ann@partner.test',
    phoneNumber: null,
    jobTitle: null,
    lastActiveAt: lastActiveAt === null ? null : new Date(lastActiveAt),
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
  });
const at = (iso: string) => new Date(iso);

describe('PartnerUser.recordActivity (X21: lastActiveAt at most once per 24 hours)', () => {
  it('sets lastActiveAt on a user whose invite is outstanding (null)', () => {
    const now = at('2030-03-01T12:00:00.000Z');
    const outstanding = user(null);
    expect(outstanding.recordActivity(now)).toBe(true);
    expect(outstanding.snapshot()).toEqual({ ...user(null).snapshot(), lastActiveAt: now });
  });

  it('leaves lastActiveAt at 23:59:59.999 after it was set, reporting no change', () => {
    const active = user('2030-03-01T12:00:00.000Z');
    expect(active.recordActivity(at('2030-03-02T11:59:59.999Z'))).toBe(false);
    expect(active.lastActiveAt).toEqual(at('2030-03-01T12:00:00.000Z'));
  });

  it('refreshes lastActiveAt at exactly 24:00:00.000 after it was set', () => {
    const now = at('2030-03-02T12:00:00.000Z');
    expect(now.getTime() - at('2030-03-01T12:00:00.000Z').getTime()).toBe(ACTIVITY_REFRESH_MS);
    const active = user('2030-03-01T12:00:00.000Z');
    expect(active.recordActivity(now)).toBe(true);
    expect(active.lastActiveAt).toEqual(now);
  });

  it('refreshes lastActiveAt days later', () => {
    const now = at('2030-04-20T08:00:00.000Z');
    const active = user('2030-03-01T12:00:00.000Z');
    active.recordActivity(now);
    expect(active.lastActiveAt).toEqual(now);
  });

  it('keeps a lastActiveAt later than now (a clock set back) instead of moving it backwards', () => {
    const active = user('2030-03-01T12:00:00.000Z');
    expect(active.recordActivity(at('2030-02-01T00:00:00.000Z'))).toBe(false);
    expect(active.lastActiveAt).toEqual(at('2030-03-01T12:00:00.000Z'));
  });
});

describe('PartnerUser.acceptInvitation (X20)', () => {
  it('sets lastActiveAt to now on an outstanding invite', () => {
    const now = at('2030-03-01T12:00:00.000Z');
    const outstanding = user(null);
    outstanding.acceptInvitation(now);
    expect(outstanding.snapshot()).toEqual({ ...user(null).snapshot(), lastActiveAt: now });
  });

  it('sets lastActiveAt to now even when activity set it less than 24 hours ago', () => {
    const now = at('2030-03-01T12:00:01.000Z');
    const active = user('2030-03-01T12:00:00.000Z');
    active.acceptInvitation(now);
    expect(active.lastActiveAt).toEqual(now);
  });
});

describe('PartnerUser identity', () => {
  it('has no id before it is stored, and is given one once', () => {
    const registered = PartnerUser.register(
      2,
      { firstName: 'Ann', lastName: null, emailAddress: 'a@p.test', phoneNumber: null, jobTitle: null },
      at('2030-01-01T00:00:00.000Z'),
    );
    expect(() => registered.id).toThrow();
    registered.identify(5);
    expect(registered.id).toBe(5);
    expect(() => registered.identify(6)).toThrow();
  });
});
