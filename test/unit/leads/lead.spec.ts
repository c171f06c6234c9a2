import { InvalidStateTransitionError, ValidationError } from '../../../src/shared/domain/domain-error';
import { LeadMother, T0, T1 } from '../../support/lead-mother';
import { Lead } from '../../../src/leads/domain/lead';
import { WRITABLE_FIELDS, WRITABLE_FIELDS_IN_LEAD_ORDER } from '../../../src/leads/domain/lead-details';
import { foldCase } from '../../../src/shared/domain/text';
import { APPROVAL_STATUSES, LEAD_TRANSITIONS } from '../../../src/leads/domain/lead-transitions';

function fieldsOf(error: unknown): string[] {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).fieldErrors.map((e) => e.field);
}

describe('Lead.submit (D26)', () => {
  it('starts PENDING, active, submitted by API, with no reject data and createdAt = updatedAt', () => {
    const lead = Lead.submit({ vendorId: 1, partnerId: 7, details: LeadMother.details() }, T0);
    expect(lead.snapshot()).toEqual({
      ...LeadMother.details(),
      id: undefined,
      vendorId: 1,
      partnerId: 7,
      approvalStatus: 'PENDING',
      archived: false,
      rejectReason: null,
      rejectComment: null,
      lastActiveAt: null,
      submittedByType: 'API',
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('sets every writable field left out to null', () => {
    const lead = Lead.submit(
      { vendorId: 1, partnerId: 7, details: { firstName: 'A', emailAddress: 'a@x.test', companyName: 'C' } },
      T0,
    );
    expect(lead.details).toMatchObject({ lastName: null, source: null, leadAge: null, externalId: null });
  });

  it('refuses missing required fields, blank ones and over-long texts, naming every field (D14, D18)', () => {
    let caught: unknown;
    try {
      Lead.submit(
        {
          vendorId: 1,
          partnerId: 7,
          details: {
            firstName: '  ',
            companyName: 'C',
            city: 'x'.repeat(256),
            productsInterested: 'y'.repeat(5001),
            leadAge: -1,
          },
        },
        T0,
      );
    } catch (error) {
      caught = error;
    }
    expect(fieldsOf(caught)).toEqual(['firstName', 'emailAddress', 'city', 'productsInterested', 'leadAge']);
  });

  it('counts code points, not UTF-16 units (D14)', () => {
    const emoji = '😀'.repeat(255);
    expect(() =>
      Lead.submit({ vendorId: 1, partnerId: 7, details: LeadMother.details({ city: emoji }) }, T0),
    ).not.toThrow();
    expect(() =>
      Lead.submit(
        { vendorId: 1, partnerId: 7, details: LeadMother.details({ city: 'a\uFE0F'.repeat(128) }) },
        T0,
      ),
    ).toThrow(ValidationError);
  });
});

describe('the transition table (docs/api.md "States and transitions")', () => {
  it('has a rule for every state and operation', () => {
    for (const status of APPROVAL_STATUSES) {
      expect(Object.keys(LEAD_TRANSITIONS[status]).sort()).toEqual(['approve', 'archive', 'reject']);
    }
  });

  describe('PENDING', () => {
    it('approve -> APPROVED, updatedAt moves', () => {
      const lead = LeadMother.pending();
      expect(lead.approve(T1)).toBe('approved');
      expect(lead.approvalStatus).toBe('APPROVED');
      expect(lead.updatedAt).toEqual(T1);
    });

    it('reject -> REJECTED with the comment recorded', () => {
      const lead = LeadMother.pending();
      expect(lead.reject('not a fit', T1)).toBe('rejected');
      expect(lead.approvalStatus).toBe('REJECTED');
      expect(lead.rejectComment).toBe('not a fit');
      expect(lead.updatedAt).toEqual(T1);
    });

    it('reject without a comment -> REJECTED with rejectComment null (D38)', () => {
      const lead = LeadMother.pending();
      lead.reject(null, T1);
      expect(lead.snapshot()).toMatchObject({ approvalStatus: 'REJECTED', rejectComment: null });
    });

    it('archive -> archived, approvalStatus unchanged', () => {
      const lead = LeadMother.pending();
      expect(lead.archive(T1)).toBe(true);
      expect(lead.snapshot()).toMatchObject({ approvalStatus: 'PENDING', archived: true, updatedAt: T1 });
    });
  });

  describe('APPROVED', () => {
    it('approve is a retry: already approved, nothing changes (D32, D34)', () => {
      const lead = LeadMother.approved();
      const before = lead.snapshot();
      expect(lead.approve(T1)).toBe('already_approved');
      expect(lead.snapshot()).toEqual(before);
    });

    it('reject is a conflict (D30) and changes nothing', () => {
      const lead = LeadMother.approved();
      const before = lead.snapshot();
      expect(() => lead.reject('late', T1)).toThrow(InvalidStateTransitionError);
      expect(lead.snapshot()).toEqual(before);
    });

    it('archive -> archived, still APPROVED (D31)', () => {
      const lead = LeadMother.approved();
      expect(lead.archive(T1)).toBe(true);
      expect(lead.snapshot()).toMatchObject({ approvalStatus: 'APPROVED', archived: true, updatedAt: T1 });
    });
  });

  describe('REJECTED', () => {
    it('approve is a conflict (D30) and changes nothing', () => {
      const lead = LeadMother.rejected();
      const before = lead.snapshot();
      let caught: unknown;
      try {
        lead.approve(T1);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidStateTransitionError);
      expect(caught).toMatchObject({ from: 'REJECTED', operation: 'approve' });
      expect(lead.snapshot()).toEqual(before);
    });

    it('reject is a retry: the first comment is kept, updatedAt unchanged (D32, D34)', () => {
      const lead = LeadMother.rejected({ rejectComment: 'first' });
      expect(lead.reject('second', T1)).toBe('already_rejected');
      expect(lead.rejectComment).toBe('first');
      expect(lead.updatedAt).toEqual(T0);
    });

    it('archive -> archived, still REJECTED (D31)', () => {
      const lead = LeadMother.rejected();
      expect(lead.archive(T1)).toBe(true);
      expect(lead.snapshot()).toMatchObject({
        approvalStatus: 'REJECTED',
        archived: true,
        rejectComment: 'first',
      });
    });
  });

  describe('archived leads (D31)', () => {
    it('archive of an archived lead succeeds and changes nothing, not even updatedAt (D34)', () => {
      const lead = LeadMother.pending({ archived: true });
      const before = lead.snapshot();
      expect(lead.archive(T1)).toBe(false);
      expect(lead.snapshot()).toEqual(before);
    });

    it('approve of an archived lead is allowed and keeps it archived', () => {
      const lead = LeadMother.pending({ archived: true });
      expect(lead.approve(T1)).toBe('approved');
      expect(lead.snapshot()).toMatchObject({ approvalStatus: 'APPROVED', archived: true });
    });

    it('reject of an archived lead is allowed and keeps it archived', () => {
      const lead = LeadMother.pending({ archived: true });
      expect(lead.reject('no', T1)).toBe('rejected');
      expect(lead.snapshot()).toMatchObject({ approvalStatus: 'REJECTED', archived: true });
    });

    it('replace and update of an archived lead are allowed and keep it archived', () => {
      const lead = LeadMother.pending({ archived: true });
      expect(lead.replace(LeadMother.details({ firstName: 'Grace' }), T1)).toBe(true);
      expect(lead.update({ lastName: 'Hopper' }, T1)).toBe(true);
      expect(lead.snapshot()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', archived: true });
    });
  });

  describe.each(APPROVAL_STATUSES)('replace or update of a %s lead', (status) => {
    it('never affects approvalStatus or archived', () => {
      const lead = LeadMother.in(status, { archived: status === 'APPROVED' });
      const { approvalStatus, archived, rejectComment } = lead.snapshot();
      lead.replace(LeadMother.details({ firstName: 'Other' }), T1);
      lead.update({ companyName: 'Else' }, T1);
      expect(lead.snapshot()).toMatchObject({
        approvalStatus,
        archived,
        rejectComment,
        firstName: 'Other',
        companyName: 'Else',
      });
    });
  });
});

describe('replace (PUT, D29)', () => {
  it('clears every writable field left out', () => {
    const lead = LeadMother.pending();
    lead.replace({ firstName: 'Ada', emailAddress: 'ada@x.test', companyName: 'C' }, T1);
    expect(lead.details).toEqual({
      ...LeadMother.details(),
      emailAddress: 'ada@x.test',
      companyName: 'C',
      lastName: null,
      phoneNumber: null,
      linkedInUrl: null,
      websiteUrl: null,
      companySize: null,
      industry: null,
      jobTitle: null,
      city: null,
      country: null,
      source: null,
      status: null,
      leadAge: null,
      productsInterested: null,
      businessImpactMetrics: null,
      externalId: null,
    });
  });

  it('changes nothing, not even updatedAt, when the body equals the stored lead (D34)', () => {
    const lead = LeadMother.pending();
    expect(lead.replace(LeadMother.details(), T1)).toBe(false);
    expect(lead.updatedAt).toEqual(T0);
  });

  it('refuses a body without the required fields', () => {
    expect(() => LeadMother.pending().replace({ firstName: 'A' }, T1)).toThrow(ValidationError);
  });
});

describe('update (PATCH, D29)', () => {
  it('changes only the fields present; null clears a nullable field', () => {
    const lead = LeadMother.pending();
    expect(lead.update({ city: 'Paris', lastName: null }, T1)).toBe(true);
    expect(lead.details).toEqual({ ...LeadMother.details(), city: 'Paris', lastName: null });
    expect(lead.updatedAt).toEqual(T1);
  });

  it('{} changes nothing and leaves updatedAt (D29, D34)', () => {
    const lead = LeadMother.pending();
    expect(lead.update({}, T1)).toBe(false);
    expect(lead.snapshot()).toEqual(LeadMother.pending().snapshot());
  });

  it('a patch equal to the stored values leaves updatedAt (D34)', () => {
    const lead = LeadMother.pending();
    expect(lead.update({ city: 'London', state: null }, T1)).toBe(false);
    expect(lead.updatedAt).toEqual(T0);
  });

  it('refuses null for a required field (D29)', () => {
    let caught: unknown;
    try {
      LeadMother.pending().update({ firstName: null as unknown as string, companyName: '' }, T1);
    } catch (error) {
      caught = error;
    }
    expect(fieldsOf(caught)).toEqual(['firstName', 'companyName']);
  });
});

describe('normalized copies (D13, D33)', () => {
  it('lower-cases email and first name for comparison, keeping the stored values as sent', () => {
    const lead = LeadMother.pending({ firstName: 'ÉLodie', emailAddress: 'Ada.Lovelace@Example.COM' });
    expect(lead.emailNormalized).toBe('ada.lovelace@example.com');
    expect(lead.firstNameNormalized).toBe('élodie');
    expect(lead.details.emailAddress).toBe('Ada.Lovelace@Example.COM');
  });

  it('never makes the copy longer than the value (a code point whose lower case is longer is kept)', () => {
    expect(foldCase('İSTANBUL')).toBe('İstanbul');
    expect([...foldCase('İ'.repeat(255))]).toHaveLength(255);
  });
});

describe('changes: the history entries a lead records (X12)', () => {
  const base = { approvalStatusFrom: 'PENDING', approvalStatusTo: 'PENDING', archived: false, comment: null };

  it('a submitted lead records CREATED: from null to PENDING, not archived, no comment, no fields', () => {
    const lead = Lead.submit({ vendorId: 1, partnerId: 7, details: LeadMother.details() }, T0);
    expect(lead.changes).toEqual([
      { ...base, action: 'CREATED', at: T0, approvalStatusFrom: null, changedFields: [] },
    ]);
  });

  it('a restored lead has recorded nothing', () => {
    expect(LeadMother.pending().changes).toEqual([]);
  });

  it('replace records REPLACED with the fields whose value changed, in the Lead object order', () => {
    const lead = LeadMother.pending();
    lead.replace(
      LeadMother.details({
        externalId: 'crm-2',
        firstName: 'Grace',
        emailAddress: 'ADA.Lovelace@Example.com',
        leadAge: 13,
      }),
      T1,
    );
    expect(lead.changes).toEqual([
      {
        ...base,
        action: 'REPLACED',
        at: T1,
        changedFields: ['firstName', 'emailAddress', 'leadAge', 'externalId'],
      },
    ]);
  });

  it('replace lists the fields it cleared, since an omitted field becomes null (D29)', () => {
    const lead = LeadMother.pending({ state: null });
    lead.replace(
      {
        firstName: 'Ada',
        emailAddress: 'Ada.Lovelace@Example.com',
        companyName: 'Analytical Engines Ltd',
        city: 'London',
      },
      T1,
    );
    expect(lead.changes[0]!.changedFields).toEqual([
      'lastName',
      'phoneNumber',
      'linkedInUrl',
      'websiteUrl',
      'companySize',
      'industry',
      'jobTitle',
      'country',
      'source',
      'status',
      'leadAge',
      'productsInterested',
      'businessImpactMetrics',
      'externalId',
    ]);
  });

  it('update records UPDATED with the fields it changed; an explicit null that clears counts', () => {
    const lead = LeadMother.approved({ archived: true });
    lead.update({ city: 'Paris', lastName: null, state: null }, T1);
    expect(lead.changes).toEqual([
      {
        action: 'UPDATED',
        at: T1,
        approvalStatusFrom: 'APPROVED',
        approvalStatusTo: 'APPROVED',
        archived: true,
        comment: null,
        changedFields: ['lastName', 'city'],
      },
    ]);
  });

  it('records nothing for a write that changes nothing: PATCH {}, the same values, an identical PUT (D34)', () => {
    const lead = LeadMother.pending();
    lead.update({}, T1);
    lead.update({ city: 'London' }, T1);
    lead.replace(LeadMother.details(), T1);
    expect(lead.changes).toEqual([]);
  });

  it('approve records APPROVED from PENDING; a retry records nothing (D32)', () => {
    const lead = LeadMother.pending({ archived: true });
    lead.approve(T1);
    lead.approve(T1);
    expect(lead.changes).toEqual([
      {
        ...base,
        action: 'APPROVED',
        at: T1,
        approvalStatusTo: 'APPROVED',
        archived: true,
        changedFields: [],
      },
    ]);
  });

  it('reject records REJECTED with its comment, or null without one; a retry records nothing (D32)', () => {
    const withComment = LeadMother.pending();
    withComment.reject('too small', T1);
    withComment.reject('second', T1);
    expect(withComment.changes).toEqual([
      {
        ...base,
        action: 'REJECTED',
        at: T1,
        approvalStatusTo: 'REJECTED',
        comment: 'too small',
        changedFields: [],
      },
    ]);
    const without = LeadMother.pending();
    without.reject(null, T1);
    expect(without.changes[0]).toMatchObject({ action: 'REJECTED', comment: null });
  });

  it('archive records ARCHIVED with archived true and the approval status unchanged; a retry records nothing', () => {
    const lead = LeadMother.rejected();
    lead.archive(T1);
    lead.archive(T1);
    expect(lead.changes).toEqual([
      {
        ...base,
        action: 'ARCHIVED',
        at: T1,
        approvalStatusFrom: 'REJECTED',
        approvalStatusTo: 'REJECTED',
        archived: true,
        changedFields: [],
      },
    ]);
  });

  it('records nothing for a refused transition (D30)', () => {
    const lead = LeadMother.rejected();
    expect(() => lead.approve(T1)).toThrow(InvalidStateTransitionError);
    expect(lead.changes).toEqual([]);
  });

  it('records each change of one object in order', () => {
    const lead = Lead.submit({ vendorId: 1, partnerId: 7, details: LeadMother.details() }, T0);
    lead.update({ city: 'Paris' }, T1);
    lead.archive(T1);
    expect(lead.changes.map((c) => c.action)).toEqual(['CREATED', 'UPDATED', 'ARCHIVED']);
  });

  it('orders changedFields by a list that holds every writable field once', () => {
    expect([...WRITABLE_FIELDS_IN_LEAD_ORDER].sort()).toEqual([...WRITABLE_FIELDS].sort());
  });
});
