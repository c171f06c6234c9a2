import { LeadApproval, LeadView } from '../application/lead-views';
import { ApprovalStatus } from '../domain/lead-transitions';
import { SubmittedByType } from '../domain/lead';

/** api.md "Lead": exactly these fields, nulls present (D4), datetimes as ISO strings (D1). */
export interface LeadResponse {
  id: number;
  partnerId: number;
  firstName: string;
  lastName: string | null;
  emailAddress: string;
  phoneNumber: string | null;
  linkedInUrl: string | null;
  companyName: string;
  websiteUrl: string | null;
  companySize: string | null;
  industry: string | null;
  jobTitle: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  source: number | null;
  status: number | null;
  leadAge: number | null;
  productsInterested: string | null;
  businessImpactMetrics: string | null;
  externalId: string | null;
  approvalStatus: ApprovalStatus;
  rejectReason: string | null;
  rejectComment: string | null;
  lastActiveAt: string | null;
  submittedByType: SubmittedByType | null;
  isDuplicate: boolean;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toLeadResponse({ lead, isDuplicate }: LeadView): LeadResponse {
  const s = lead.snapshot();
  return {
    id: s.id!,
    partnerId: s.partnerId,
    firstName: s.firstName,
    lastName: s.lastName,
    emailAddress: s.emailAddress,
    phoneNumber: s.phoneNumber,
    linkedInUrl: s.linkedInUrl,
    companyName: s.companyName,
    websiteUrl: s.websiteUrl,
    companySize: s.companySize,
    industry: s.industry,
    jobTitle: s.jobTitle,
    city: s.city,
    state: s.state,
    country: s.country,
    source: s.source,
    status: s.status,
    leadAge: s.leadAge,
    productsInterested: s.productsInterested,
    businessImpactMetrics: s.businessImpactMetrics,
    externalId: s.externalId,
    approvalStatus: s.approvalStatus,
    rejectReason: s.rejectReason,
    rejectComment: s.rejectComment,
    lastActiveAt: s.lastActiveAt ? s.lastActiveAt.toISOString() : null,
    submittedByType: s.submittedByType,
    isDuplicate,
    archived: s.archived,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** api.md "LeadApprovalResult". */
export function toApprovalResponse(approval: LeadApproval): { lead: LeadResponse; contactId: number } {
  return { lead: toLeadResponse(approval.lead), contactId: approval.contactId };
}
