import { Partner, PartnerProfile } from '../../src/partners/domain/partner';
import { PartnerUser, PartnerUserRequest } from '../../src/partners/domain/partner-user';

let sequence = 0;
const next = () => ++sequence;

/**
 * Object mother for the partners module's domain objects in unit tests (PartnerMother in
 * partner-mother.ts builds request bodies for the HTTP tests). Every address is new, so tests never
 * collide on D13's uniqueness by accident.
 */
export const PartnerAggregateMother = {
  email(prefix = 'user'): string {
    return `${prefix}-${next()}@partner.test`;
  },

  profile(overrides: Partial<PartnerProfile> = {}): PartnerProfile {
    return {
      companyName: `Company ${next()}`,
      description: null,
      website: null,
      country: null,
      companySize: null,
      contactName: 'Carla Contact',
      contactEmailAddress: PartnerAggregateMother.email('contact'),
      contactPhone: null,
      contactRole: null,
      type: null,
      ...overrides,
    };
  },

  userRequest(overrides: Partial<PartnerUserRequest> = {}): PartnerUserRequest {
    return {
      firstName: 'Ann',
      lastName: null,
      emailAddress: PartnerAggregateMother.email('user'),
      phoneNumber: null,
      jobTitle: null,
      ...overrides,
    };
  },

  /** A partner as Partner.invite makes it (not stored: no id). */
  invited(now: Date, overrides: Partial<PartnerProfile> = {}): Partner {
    return Partner.invite(PartnerAggregateMother.profile(overrides), now);
  },

  /** A user as PartnerUser.register makes it (not stored: no id). */
  registered(partnerId: number, now: Date, overrides: Partial<PartnerUserRequest> = {}): PartnerUser {
    return PartnerUser.register(partnerId, PartnerAggregateMother.userRequest(overrides), now);
  },
};
