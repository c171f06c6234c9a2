import { ApiSchema } from '@nestjs/swagger';
import {
  BooleanField,
  DateTimeField,
  EmailField,
  EnumField,
  IdField,
  IntegerField,
  ObjectField,
  TextField,
} from '../../shared/http/response-fields';
import { LeadApproval, LeadView } from '../application/lead-views';
import { APPROVAL_STATUSES, ApprovalStatus } from '../domain/lead-transitions';
import { SUBMITTED_BY_TYPES, SubmittedByType } from '../domain/lead';
import { isoDateTime } from '../../shared/domain/date-time';

const NULLABLE = true;

/** The Lead resource (docs/api.md "Lead"): exactly these fields, nulls present (D4), datetimes as ISO strings (D1). */
@ApiSchema({ name: 'Lead' })
export class LeadResponse {
  @IdField() id!: number;
  @IdField({ description: 'the partner that brought the lead' }) partnerId!: number;
  @TextField({ example: 'Maria' }) firstName!: string;
  @TextField({ example: 'Anders' }, NULLABLE) lastName!: string | null;
  @EmailField({ example: 'maria@alfreds.example' }) emailAddress!: string;
  @TextField({}, NULLABLE) phoneNumber!: string | null;
  @TextField({}, NULLABLE) linkedInUrl!: string | null;
  @TextField({ example: 'Alfreds Futterkiste' }) companyName!: string;
  @TextField({}, NULLABLE) websiteUrl!: string | null;
  @TextField({}, NULLABLE) companySize!: string | null;
  @TextField({}, NULLABLE) industry!: string | null;
  @TextField({}, NULLABLE) jobTitle!: string | null;
  @TextField({}, NULLABLE) city!: string | null;
  @TextField({}, NULLABLE) state!: string | null;
  @TextField({}, NULLABLE) country!: string | null;
  @IdField(
    { description: 'id of one of the vendor’s lead sources (GET lead-options)', example: null },
    NULLABLE,
  )
  source!: number | null;
  @IdField({ description: 'id of one of the vendor’s lead statuses', example: null }, NULLABLE)
  status!: number | null;
  @IntegerField({ example: null }, NULLABLE) leadAge!: number | null;
  @TextField({}, NULLABLE) productsInterested!: string | null;
  @TextField({}, NULLABLE) businessImpactMetrics!: string | null;
  @TextField({ description: 'the caller’s own identifier, stored and returned unchanged' }, NULLABLE)
  externalId!: string | null;
  @EnumField(APPROVAL_STATUSES, { description: 'PENDING when created; see the state machine' })
  approvalStatus!: ApprovalStatus;
  @TextField({}, NULLABLE) rejectReason!: string | null;
  @TextField({ description: 'the comment of the first reject that landed (D32)' }, NULLABLE)
  rejectComment!: string | null;
  @DateTimeField({}, NULLABLE) lastActiveAt!: string | null;
  @EnumField(
    SUBMITTED_BY_TYPES,
    { description: 'API for leads created through this API (D26)', example: 'API' },
    NULLABLE,
  )
  submittedByType!: SubmittedByType | null;
  @BooleanField({
    description: 'another non-archived lead or a contact of the vendor has the same email address (D28)',
    example: false,
  })
  isDuplicate!: boolean;
  @BooleanField({ description: 'archived leads are left out of listings by default', example: false })
  archived!: boolean;
  @DateTimeField() createdAt!: string;
  @DateTimeField({ description: 'changes on every write that changes the lead (D34)' }) updatedAt!: string;
}

/** LeadApprovalResult: the approved lead and the contact it became (D32). */
@ApiSchema({ name: 'LeadApprovalResult' })
export class LeadApprovalResponse {
  @ObjectField(LeadResponse) lead!: LeadResponse;
  @IdField({ description: 'the contact the lead became; the same on every approve of the lead (D32)' })
  contactId!: number;
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
    lastActiveAt: s.lastActiveAt ? isoDateTime(s.lastActiveAt) : null,
    submittedByType: s.submittedByType,
    isDuplicate,
    archived: s.archived,
    createdAt: isoDateTime(s.createdAt),
    updatedAt: isoDateTime(s.updatedAt),
  };
}

export function toApprovalResponse(approval: LeadApproval): LeadApprovalResponse {
  return { lead: toLeadResponse(approval.lead), contactId: approval.contactId };
}
