import { Controller, Get, Patch, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Page } from '../../shared/application/page';
import type { Actor } from '../../shared/application/actor';
import { CurrentActor, CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Operation } from '../../shared/http/operation';
import { Input, ValidInput } from '../../shared/http/request-input';
import { GetLeadHistoryUseCase } from '../application/get-lead-history.use-case';
import { GetLeadUseCase } from '../application/get-lead.use-case';
import { ListLeadsUseCase } from '../application/list-leads.use-case';
import { ApproveLeadUseCase } from '../application/approve-lead.use-case';
import { ArchiveLeadUseCase } from '../application/archive-lead.use-case';
import { RejectLeadUseCase } from '../application/reject-lead.use-case';
import { CreateLeadUseCase } from '../application/create-lead.use-case';
import { ReplaceLeadUseCase } from '../application/replace-lead.use-case';
import { UpdateLeadUseCase } from '../application/update-lead.use-case';
import { LeadListQuery } from '../domain/lead-list-query';
import { acceptedLeadBody } from './class-validator-lead-request-validator';
import { LeadOptionInputCheck } from './lead-option.input-check';
import {
  LeadBody,
  LeadPatchBody,
  LeadPath,
  ListLeadsQuery,
  PartnerLeadsPath,
  RejectLeadBody,
} from './lead.dto';
import { LeadHistoryEntryResponse, toLeadHistoryEntryResponse } from './lead-history.response';
import { LeadApprovalResponse, LeadResponse, toApprovalResponse, toLeadResponse } from './lead.response';

/** A body the shortcut accepts skips class-validator; the spec of acceptedLeadBody shows they agree. */
const LEAD_BODY = {
  type: LeadBody,
  acceptedAsIs: (body: Record<string, unknown>) => acceptedLeadBody(body) as LeadBody | null,
};
const LEAD_CHECKS = [LeadOptionInputCheck];

const DAY_MS = 86_400_000;

/** The listing's parameters as the use case takes them (D33: dates are whole UTC days, inclusive). */
function toListQuery(q: ListLeadsQuery): Omit<LeadListQuery, 'vendorId' | 'partnerId'> {
  return {
    page: q.page,
    perPage: q.perPage,
    sortBy: q.sortBy,
    sortDirection: q.sortDirection,
    approvalStatus: q.approvalStatus,
    statuses: q.status,
    sources: q.source,
    keyword: q.keyword,
    createdFrom: q.createdAtAfter,
    // "before D" means before the midnight that ends D
    createdUntil: q.createdAtBefore ? new Date(q.createdAtBefore.getTime() + DAY_MS) : undefined,
    archived: q.archived,
  };
}

/** Endpoints 5-6 (docs/api.md): a partner's leads. */
@ApiTags('Leads')
@Controller('partners')
export class PartnerLeadsController {
  constructor(
    private readonly createLead: CreateLeadUseCase,
    private readonly listLeads: ListLeadsUseCase,
  ) {}

  @Operation({
    id: 'createLead',
    summary: 'Submit a lead for a partner',
    description:
      'Creates a lead of the caller’s vendor for a partner connected to it: approvalStatus PENDING, not archived, ' +
      'submittedByType API (D26). The email address must be new among the leads of this vendor and partner, ' +
      'compared case-insensitively and archived leads included (D27: otherwise DUPLICATE_ENTRY naming ' +
      '`emailAddress`). `source` and `status` must be ids of the vendor’s lead options (D15). Read-only and ' +
      'unknown fields are ignored (D5).',
    message: 'LEAD_CREATE_SUCCESSFUL',
    data: LeadResponse,
    errors: ['DUPLICATE_ENTRY', 'RESOURCE_NOT_FOUND'],
  })
  @Post(':partnerId/leads')
  async create(
    @CurrentActor() actor: Actor,
    @ValidInput({ params: PartnerLeadsPath, body: LEAD_BODY, checks: LEAD_CHECKS })
    input: Input<PartnerLeadsPath, undefined, LeadBody>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.createLead.execute(actor, input.params.partnerId, { ...input.body }));
  }

  @Operation({
    id: 'listLeads',
    summary: 'List a partner’s leads',
    description:
      'One page of the caller’s vendor’s leads of this partner (D27), with `totalItems` counting every lead the ' +
      'filters match. Without `archived=true` archived leads are left out. Filters combine with AND; a status ' +
      'or source id that matches nothing gives an empty page (D33). A parameter given twice that is not ' +
      'repeatable, a malformed integer or date, or an unknown enum value is VALIDATION_FAILED; unknown ' +
      'parameters are ignored (D39).',
    data: { page: LeadResponse },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Get(':partnerId/leads')
  async list(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: PartnerLeadsPath, query: ListLeadsQuery })
    input: Input<PartnerLeadsPath, ListLeadsQuery>,
  ): Promise<Page<LeadResponse>> {
    const page = await this.listLeads.execute({
      ...toListQuery(input.query),
      vendorId,
      partnerId: input.params.partnerId,
    });
    return {
      data: page.data.map(toLeadResponse),
      page: page.page,
      perPage: page.perPage,
      totalItems: page.totalItems,
    };
  }
}

/** Endpoints 7-12 (docs/api.md) and X12: one lead. */
@ApiTags('Leads')
@Controller('leads')
export class LeadsController {
  constructor(
    private readonly getLead: GetLeadUseCase,
    private readonly replaceLead: ReplaceLeadUseCase,
    private readonly updateLead: UpdateLeadUseCase,
    private readonly approveLead: ApproveLeadUseCase,
    private readonly rejectLead: RejectLeadUseCase,
    private readonly archiveLead: ArchiveLeadUseCase,
    private readonly getLeadHistory: GetLeadHistoryUseCase,
  ) {}

  @Operation({
    id: 'getLead',
    summary: 'Read a lead',
    description:
      'The lead, with `isDuplicate` computed as it is read (D28). Another vendor’s lead is 404 (D27).',
    data: LeadResponse,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Get(':leadId')
  async get(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: LeadPath }) input: Input<LeadPath>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.getLead.execute(vendorId, input.params.leadId));
  }

  @Operation({
    id: 'replaceLead',
    summary: 'Replace a lead',
    description:
      'Replaces every writable field: an omitted field becomes null (D29). approvalStatus and archived never ' +
      'change; an archived lead may be replaced (D31). The email address must stay unique per vendor and ' +
      'partner (D27). `updatedAt` changes only when something changed (D34).',
    data: LeadResponse,
    errors: ['DUPLICATE_ENTRY', 'RESOURCE_NOT_FOUND'],
  })
  @Put(':leadId')
  async replace(
    @CurrentActor() actor: Actor,
    @ValidInput({ params: LeadPath, body: LEAD_BODY, checks: LEAD_CHECKS })
    input: Input<LeadPath, undefined, LeadBody>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.replaceLead.execute(actor, input.params.leadId, { ...input.body }));
  }

  @Operation({
    id: 'updateLead',
    summary: 'Update some fields of a lead',
    description:
      'Changes only the fields present: an explicit null clears a nullable field; null for firstName, ' +
      'emailAddress or companyName is VALIDATION_FAILED; `{}` changes nothing and is still 200 (D29).',
    data: LeadResponse,
    errors: ['DUPLICATE_ENTRY', 'RESOURCE_NOT_FOUND'],
  })
  @Patch(':leadId')
  async update(
    @CurrentActor() actor: Actor,
    @ValidInput({ params: LeadPath, body: { type: LeadPatchBody }, checks: LEAD_CHECKS })
    input: Input<LeadPath, undefined, LeadPatchBody>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.updateLead.execute(actor, input.params.leadId, { ...input.body }));
  }

  /** No body; any body is ignored (D38). */
  @Operation({
    id: 'approveLead',
    summary: 'Approve a lead',
    description:
      'PENDING → APPROVED: the lead becomes a contact. Approving an approved lead again returns the same ' +
      '`contactId`; exactly one contact per lead, even under concurrent approves (D32). A REJECTED lead is ' +
      '409. Archived leads may be approved (D31). Any body is ignored (D38).',
    message: 'LEAD_APPROVE_SUCCESSFUL',
    data: LeadApprovalResponse,
    errors: ['RESOURCE_NOT_FOUND', 'INVALID_STATE_TRANSITION'],
  })
  @Put(':leadId/approve')
  async approve(
    @CurrentActor() actor: Actor,
    @ValidInput({ params: LeadPath }) input: Input<LeadPath>,
  ): Promise<LeadApprovalResponse> {
    return toApprovalResponse(await this.approveLead.execute(actor, input.params.leadId));
  }

  @Operation({
    id: 'rejectLead',
    summary: 'Reject a lead',
    description:
      'PENDING → REJECTED with an optional comment; the body may be omitted (D38). Rejecting a rejected lead ' +
      'again keeps the first comment (D32). An APPROVED lead is 409. Archived leads may be rejected (D31).',
    data: LeadResponse,
    errors: ['RESOURCE_NOT_FOUND', 'INVALID_STATE_TRANSITION'],
  })
  @Put(':leadId/reject')
  async reject(
    @CurrentActor() actor: Actor,
    @ValidInput({ params: LeadPath, body: { type: RejectLeadBody, optional: true } })
    input: Input<LeadPath, undefined, RejectLeadBody | undefined>,
  ): Promise<LeadResponse> {
    return toLeadResponse(
      await this.rejectLead.execute(actor, input.params.leadId, input.body?.comment ?? null),
    );
  }

  /** No body; any body is ignored (D38). */
  @Operation({
    id: 'archiveLead',
    summary: 'Archive a lead',
    description:
      'Sets `archived` to true whatever the approval status (D31); archiving an archived lead succeeds and ' +
      'changes nothing (D34). Any body is ignored (D38).',
    data: LeadResponse,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Put(':leadId/archive')
  async archive(
    @CurrentActor() actor: Actor,
    @ValidInput({ params: LeadPath }) input: Input<LeadPath>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.archiveLead.execute(actor, input.params.leadId));
  }

  @Operation({
    id: 'getLeadHistory',
    summary: 'Read a lead’s history',
    description:
      'What happened to the lead, oldest entry first (X12): one entry per request that changed it — CREATED ' +
      '(by POST or the bulk import), REPLACED, UPDATED, APPROVED, REJECTED, ARCHIVED — written in the same ' +
      'transaction as the change. A request that changed nothing (a re-approve, re-reject or re-archive, ' +
      '`PATCH {}`, a PUT of the stored values) adds none. `changedFields` names the Lead fields a REPLACED or ' +
      'UPDATED entry changed; `apiKeyPrefix` is the display prefix of the API key that made the change (null ' +
      'for the bulk import), never the key. Another vendor’s lead is 404 (D27).',
    data: [LeadHistoryEntryResponse],
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Get(':leadId/history')
  async history(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: LeadPath }) input: Input<LeadPath>,
  ): Promise<LeadHistoryEntryResponse[]> {
    const entries = await this.getLeadHistory.execute(vendorId, input.params.leadId);
    return entries.map(toLeadHistoryEntryResponse);
  }
}
