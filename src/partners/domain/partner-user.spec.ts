import { acceptInvitation, ACTIVITY_REFRESH_MS, PartnerUser, recordActivity } from './partner-user';

const user = (lastActiveAt: string | null): PartnerUser => ({
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

describe('recordActivity (X21: lastActiveAt at most once per 24 hours)', () => {
  it('sets lastActiveAt on a user whose invite is outstanding (null)', () => {
    const now = at('2030-03-01T12:00:00.000Z');
    expect(recordActivity(user(null), now)).toEqual({ ...user(null), lastActiveAt: now });
  });

  it('leaves lastActiveAt at 23:59:59.999 after it was set, returning the same user', () => {
    const active = user('2030-03-01T12:00:00.000Z');
    expect(recordActivity(active, at('2030-03-02T11:59:59.999Z'))).toBe(active);
    expect(active.lastActiveAt).toEqual(at('2030-03-01T12:00:00.000Z'));
  });

  it('refreshes lastActiveAt at exactly 24:00:00.000 after it was set', () => {
    const now = at('2030-03-02T12:00:00.000Z');
    expect(now.getTime() - at('2030-03-01T12:00:00.000Z').getTime()).toBe(ACTIVITY_REFRESH_MS);
    expect(recordActivity(user('2030-03-01T12:00:00.000Z'), now).lastActiveAt).toEqual(now);
  });

  it('refreshes lastActiveAt days later', () => {
    const now = at('2030-04-20T08:00:00.000Z');
    expect(recordActivity(user('2030-03-01T12:00:00.000Z'), now).lastActiveAt).toEqual(now);
  });

  it('keeps a lastActiveAt later than now (a clock set back) instead of moving it backwards', () => {
    const active = user('2030-03-01T12:00:00.000Z');
    expect(recordActivity(active, at('2030-02-01T00:00:00.000Z'))).toBe(active);
  });

  it('does not change the user it was given', () => {
    const outstanding = user(null);
    recordActivity(outstanding, at('2030-03-01T12:00:00.000Z'));
    expect(outstanding.lastActiveAt).toBeNull();
  });
});

describe('acceptInvitation (X20)', () => {
  it('sets lastActiveAt to now on an outstanding invite', () => {
    const now = at('2030-03-01T12:00:00.000Z');
    expect(acceptInvitation(user(null), now)).toEqual({ ...user(null), lastActiveAt: now });
  });

  it('sets lastActiveAt to now even when activity set it less than 24 hours ago', () => {
    const now = at('2030-03-01T12:00:01.000Z');
    expect(acceptInvitation(user('2030-03-01T12:00:00.000Z'), now).lastActiveAt).toEqual(now);
  });
});
