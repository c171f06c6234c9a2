import { InvitationToken } from './invitation';
import { Partner, PartnerProfile } from './partner';
import { firstDuplicateEmail, initialUsers, PartnerUser, PartnerUserRequest } from './partner-user';

const profile: PartnerProfile = {
  companyName: 'Partner GmbH',
  description: null,
  website: null,
  country: null,
  companySize: null,
  contactName: 'Mary Ann Smith',
  contactEmailAddress: 'Mary@Partner.test',
  contactPhone: null,
  contactRole: null,
  type: 'RESELLER',
};
const user = (emailAddress: string): PartnerUserRequest => ({
  firstName: 'U',
  lastName: null,
  emailAddress,
  phoneNumber: null,
  jobTitle: null,
});

describe('Partner', () => {
  const now = new Date('2030-05-06T07:08:09.010Z');

  it('is invited with invitedAt = createdAt = the time of the invite', () => {
    const partner = Partner.invite(profile, now);
    partner.identify(7);
    expect(partner.snapshot()).toEqual({ ...profile, id: 7, invitedAt: now, createdAt: now });
    expect(partner.contactEmailNormalized).toBe('mary@partner.test');
  });

  it('moves only invitedAt when invited again (D20, D23)', () => {
    const partner = Partner.invite(profile, now);
    partner.identify(7);
    const before = partner.snapshot();
    const later = new Date('2030-06-01T00:00:00.000Z');
    partner.recordInvitation(later);
    expect(partner.snapshot()).toEqual({ ...before, invitedAt: later });
  });

  it('has no id before it is stored', () => {
    expect(() => Partner.invite(profile, now).id).toThrow();
  });
});

describe('initialUsers (D19)', () => {
  it('without a list, makes the contact the one user: whole contactName as firstName, no lastName', () => {
    expect(initialUsers(profile, null)).toEqual([
      {
        firstName: 'Mary Ann Smith',
        lastName: null,
        emailAddress: 'Mary@Partner.test',
        phoneNumber: null,
        jobTitle: null,
      },
    ]);
  });

  it('with a list, takes exactly that list, whether or not the contact is in it', () => {
    const users = [user('a@p.test'), user('b@p.test')];
    expect(initialUsers(profile, users)).toBe(users);
  });
});

describe('firstDuplicateEmail (D21)', () => {
  it('is undefined for distinct, untaken addresses', () => {
    expect(firstDuplicateEmail([user('a@p.test'), user('b@p.test')], new Set())).toBeUndefined();
  });

  it('names the later occurrence of a repeat, case-insensitively', () => {
    expect(firstDuplicateEmail([user('a@p.test'), user('b@p.test'), user('A@P.TEST')], new Set())).toBe(2);
  });

  it('names a taken address (the set holds normalized addresses)', () => {
    expect(firstDuplicateEmail([user('a@p.test'), user('Taken@p.test')], new Set(['taken@p.test']))).toBe(1);
  });

  it('reports the first offending entry in list order', () => {
    const users = [user('a@p.test'), user('taken@p.test'), user('a@p.test')];
    expect(firstDuplicateEmail(users, new Set(['taken@p.test']))).toBe(1);
  });
});

describe('PartnerUser.register', () => {
  it('starts with an outstanding invite (lastActiveAt null)', () => {
    const now = new Date();
    const registered = PartnerUser.register(3, user('a@p.test'), now);
    registered.identify(9);
    expect(registered.snapshot()).toEqual({
      id: 9,
      ...user('a@p.test'),
      partnerId: 3,
      lastActiveAt: null,
      createdAt: now,
    });
  });
});

describe('InvitationToken', () => {
  it('is 32 random bytes in base64url, stored as a SHA-256 hash that does not contain it', () => {
    const token = InvitationToken.generate();
    expect(token.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.value, 'base64url')).toHaveLength(32);
    expect(token.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(token.hash).toBe(InvitationToken.hash(token.value));
    expect(InvitationToken.generate().value).not.toBe(token.value);
  });
});
