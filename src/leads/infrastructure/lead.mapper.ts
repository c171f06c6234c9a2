import { Lead, LeadSnapshot, SubmittedByType } from '../domain/lead';
import { ApprovalStatus } from '../domain/lead-transitions';
import { LeadOrmEntity } from './lead.orm-entity';

/**
 * Domain <-> row, field by field. The normalized copies (email_normalized, first_name_normalized)
 * exist only in the row: they are derived from the lead on every write (D13, D33).
 */
export const LeadMapper = {
  toDomain(row: LeadOrmEntity): Lead {
    const snapshot: LeadSnapshot = {
      id: row.id,
      vendorId: row.vendorId,
      partnerId: row.partnerId,
      firstName: row.firstName,
      lastName: row.lastName,
      emailAddress: row.emailAddress,
      phoneNumber: row.phoneNumber,
      linkedInUrl: row.linkedInUrl,
      companyName: row.companyName,
      websiteUrl: row.websiteUrl,
      companySize: row.companySize,
      industry: row.industry,
      jobTitle: row.jobTitle,
      city: row.city,
      state: row.state,
      country: row.country,
      source: row.source,
      status: row.status,
      leadAge: row.leadAge,
      productsInterested: row.productsInterested,
      businessImpactMetrics: row.businessImpactMetrics,
      externalId: row.externalId,
      approvalStatus: row.approvalStatus as ApprovalStatus,
      archived: Boolean(row.archived),
      rejectReason: row.rejectReason,
      rejectComment: row.rejectComment,
      lastActiveAt: row.lastActiveAt,
      submittedByType: row.submittedByType as SubmittedByType | null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    return Lead.restore(snapshot);
  },

  toRow(lead: Lead): LeadOrmEntity {
    const s = lead.snapshot();
    const row = new LeadOrmEntity();
    if (s.id !== undefined) row.id = s.id;
    row.vendorId = s.vendorId;
    row.partnerId = s.partnerId;
    row.firstName = s.firstName;
    row.firstNameNormalized = lead.firstNameNormalized;
    row.lastName = s.lastName;
    row.emailAddress = s.emailAddress;
    row.emailNormalized = lead.emailNormalized;
    row.phoneNumber = s.phoneNumber;
    row.linkedInUrl = s.linkedInUrl;
    row.companyName = s.companyName;
    row.websiteUrl = s.websiteUrl;
    row.companySize = s.companySize;
    row.industry = s.industry;
    row.jobTitle = s.jobTitle;
    row.city = s.city;
    row.state = s.state;
    row.country = s.country;
    row.source = s.source;
    row.status = s.status;
    row.leadAge = s.leadAge;
    row.productsInterested = s.productsInterested;
    row.businessImpactMetrics = s.businessImpactMetrics;
    row.externalId = s.externalId;
    row.approvalStatus = s.approvalStatus;
    row.archived = s.archived;
    row.rejectReason = s.rejectReason;
    row.rejectComment = s.rejectComment;
    row.lastActiveAt = s.lastActiveAt;
    row.submittedByType = s.submittedByType;
    row.createdAt = s.createdAt;
    row.updatedAt = s.updatedAt;
    return row;
  },
};
