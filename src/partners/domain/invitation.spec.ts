import { Invitation, INVITATION_VALIDITY_MS, InvitationSnapshot } from './invitation';

const issued = new Date('2030-05-01T09:30:00.000Z');
const invitation = (overrides: Partial<InvitationSnapshot> = {}) =>
  Invitation.restore({
    id: 1,
    userId: 2,
    vendorId: 3,
    createdAt: issued,
    acceptedAt: null,
    superseded: false,
    ...overrides,
  });
const after = (ms: number) => new Date(issued.getTime() + ms);

describe('Invitation.isAcceptableAt (X20)', () => {
  it('is acceptable right after it was issued', () => {
    expect(invitation().isAcceptableAt(issued)).toBe(true);
  });

  it('is acceptable 1 ms before 14 days have passed', () => {
    expect(invitation().isAcceptableAt(after(INVITATION_VALIDITY_MS - 1))).toBe(true);
  });

  it('has expired at exactly 14 days', () => {
    expect(INVITATION_VALIDITY_MS).toBe(14 * 24 * 3600 * 1000);
    expect(invitation().isAcceptableAt(after(INVITATION_VALIDITY_MS))).toBe(false);
  });

  it('is not acceptable once accepted', () => {
    expect(invitation({ acceptedAt: after(1000) }).isAcceptableAt(after(2000))).toBe(false);
  });

  it('is not acceptable once a later reinvite superseded it', () => {
    expect(invitation({ superseded: true }).isAcceptableAt(after(1000))).toBe(false);
  });
});
