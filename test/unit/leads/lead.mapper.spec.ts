import { LeadMother, T1 } from '../../support/lead-mother';
import { LeadMapper } from '../../../src/leads/infrastructure/lead.mapper';

describe('LeadMapper', () => {
  it('round-trips every field of a lead through its row', () => {
    const lead = LeadMother.rejected({
      archived: true,
      rejectReason: 'r',
      lastActiveAt: T1,
      leadAge: 0,
      state: null,
    });
    expect(LeadMapper.toDomain(LeadMapper.toRow(lead)).snapshot()).toEqual(lead.snapshot());
  });

  it('writes the normalized copies the indexes use (D13, D33)', () => {
    const row = LeadMapper.toRow(LeadMother.pending({ firstName: 'ÉVA', emailAddress: 'Eva@Example.COM' }));
    expect(row).toMatchObject({
      firstName: 'ÉVA',
      firstNameNormalized: 'éva',
      emailAddress: 'Eva@Example.COM',
      emailNormalized: 'eva@example.com',
    });
  });

  it('leaves the id out of the row of a lead not yet stored', () => {
    expect('id' in LeadMapper.toRow(LeadMother.pending({ id: undefined }))).toBe(false);
  });
});
