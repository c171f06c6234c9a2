import { Lead, LeadSnapshot } from '../../src/leads/domain/lead';
import { LeadDetails } from '../../src/leads/domain/lead-details';
import { ApprovalStatus } from '../../src/leads/domain/lead-transitions';

export const T0 = new Date('2026-01-10T08:00:00.000Z');
export const T1 = new Date('2026-01-11T09:30:00.250Z');

/** Object mother for leads in unit tests: named states instead of copy-pasted snapshots. */
export const LeadMother = {
  details(overrides: Partial<LeadDetails> = {}): LeadDetails {
    return {
      firstName: 'Ada',
      emailAddress: 'Ada.Lovelace@Example.com',
      companyName: 'Analytical Engines Ltd',
      lastName: 'Lovelace',
      phoneNumber: '+44 20 0000 0000',
      linkedInUrl: 'https://linkedin.example/ada',
      websiteUrl: 'https://engines.example',
      companySize: '11-50',
      industry: 'Computing',
      jobTitle: 'Analyst',
      city: 'London',
      state: null,
      country: 'UK',
      source: 3,
      status: 4,
      leadAge: 12,
      productsInterested: 'Difference engine',
      businessImpactMetrics: 'Many tables computed',
      externalId: 'crm-001',
      ...overrides,
    };
  },

  snapshot(overrides: Partial<LeadSnapshot> = {}): LeadSnapshot {
    return {
      ...LeadMother.details(),
      id: 41,
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
      ...overrides,
    };
  },

  in(approvalStatus: ApprovalStatus, overrides: Partial<LeadSnapshot> = {}): Lead {
    return Lead.restore(
      LeadMother.snapshot({
        approvalStatus,
        rejectComment: approvalStatus === 'REJECTED' ? 'first' : null,
        ...overrides,
      }),
    );
  },

  pending(overrides: Partial<LeadSnapshot> = {}): Lead {
    return LeadMother.in('PENDING', overrides);
  },
  approved(overrides: Partial<LeadSnapshot> = {}): Lead {
    return LeadMother.in('APPROVED', overrides);
  },
  rejected(overrides: Partial<LeadSnapshot> = {}): Lead {
    return LeadMother.in('REJECTED', overrides);
  },
};
