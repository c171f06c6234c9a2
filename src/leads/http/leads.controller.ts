import { Controller, Get, Patch, Post, Put } from '@nestjs/common';
import { Page } from '../../shared/application/page';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Success } from '../../shared/http/envelope';
import { QueryReader } from '../../shared/http/query-reader';
import { Input, ValidInput } from '../../shared/http/request-input';
import { GetLeadUseCase, ListLeadsUseCase } from '../application/lead-read.use-cases';
import {
  ApproveLeadUseCase,
  ArchiveLeadUseCase,
  RejectLeadUseCase,
} from '../application/lead-state.use-cases';
import {
  CreateLeadUseCase,
  ReplaceLeadUseCase,
  UpdateLeadUseCase,
} from '../application/lead-write.use-cases';
import { LEAD_SORT_FIELDS, LeadListQuery } from '../domain/lead-list-query';
import { APPROVAL_STATUSES } from '../domain/lead-transitions';
import { LeadOptionInputCheck } from './lead-option.input-check';
import { LeadBody, LeadPatchBody, RejectLeadBody } from './lead.dtos';
import { LeadResponse, toApprovalResponse, toLeadResponse } from './lead.response';

const DAY_MS = 86_400_000;

type ListParameters = Omit<LeadListQuery, 'vendorId' | 'partnerId'>;

/** api.md 6 with D33 and D39: every parameter read, every error collected. */
function readListQuery(q: QueryReader): ListParameters {
  const createdAtBefore = q.date('createdAtBefore');
  const keyword = q.text('keyword');
  return {
    page: q.integer('page', { default: 0, min: 0 }),
    perPage: q.integer('perPage', { default: 20, min: 1, max: 100 }),
    sortBy: q.enumOrDefault('sortBy', LEAD_SORT_FIELDS, 'createdAt'),
    sortDirection: q.enumOf('sortDirection', ['asc', 'desc'] as const, { caseInsensitive: true }) ?? 'desc',
    approvalStatus: q.enumOf('approvalStatus', APPROVAL_STATUSES),
    statuses: q.integerList('status'),
    sources: q.integerList('source'),
    keyword: keyword === '' ? undefined : keyword,
    createdFrom: q.date('createdAtAfter'),
    // D33: whole UTC days, inclusive: "before D" means before the midnight that ends D.
    createdUntil: createdAtBefore ? new Date(createdAtBefore.getTime() + DAY_MS) : undefined,
    archived: q.boolean('archived', false),
  };
}

/** api.md 5-6: a partner's leads. */
@Controller('partners')
export class PartnerLeadsController {
  constructor(
    private readonly createLead: CreateLeadUseCase,
    private readonly listLeads: ListLeadsUseCase,
  ) {}

  @Post(':partnerId/leads')
  @Success('LEAD_CREATE_SUCCESSFUL')
  async create(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['partnerId'], body: { type: LeadBody }, checks: [LeadOptionInputCheck] })
    input: Input<'partnerId', undefined, LeadBody>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.createLead.execute(vendorId, input.params.partnerId, { ...input.body }));
  }

  @Get(':partnerId/leads')
  @Success()
  async list(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['partnerId'], query: readListQuery }) input: Input<'partnerId', ListParameters>,
  ): Promise<Page<LeadResponse>> {
    const page = await this.listLeads.execute({
      ...input.query,
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

/** api.md 7-12: one lead. */
@Controller('leads')
export class LeadsController {
  constructor(
    private readonly getLead: GetLeadUseCase,
    private readonly replaceLead: ReplaceLeadUseCase,
    private readonly updateLead: UpdateLeadUseCase,
    private readonly approveLead: ApproveLeadUseCase,
    private readonly rejectLead: RejectLeadUseCase,
    private readonly archiveLead: ArchiveLeadUseCase,
  ) {}

  @Get(':leadId')
  @Success()
  async get(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['leadId'] }) input: Input<'leadId'>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.getLead.execute(vendorId, input.params.leadId));
  }

  @Put(':leadId')
  @Success()
  async replace(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['leadId'], body: { type: LeadBody }, checks: [LeadOptionInputCheck] })
    input: Input<'leadId', undefined, LeadBody>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.replaceLead.execute(vendorId, input.params.leadId, { ...input.body }));
  }

  @Patch(':leadId')
  @Success()
  async update(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['leadId'], body: { type: LeadPatchBody }, checks: [LeadOptionInputCheck] })
    input: Input<'leadId', undefined, LeadPatchBody>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.updateLead.execute(vendorId, input.params.leadId, { ...input.body }));
  }

  /** No body; any body is ignored (D38). */
  @Put(':leadId/approve')
  @Success('LEAD_APPROVE_SUCCESSFUL')
  async approve(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['leadId'] }) input: Input<'leadId'>,
  ): Promise<{ lead: LeadResponse; contactId: number }> {
    return toApprovalResponse(await this.approveLead.execute(vendorId, input.params.leadId));
  }

  @Put(':leadId/reject')
  @Success()
  async reject(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['leadId'], body: { type: RejectLeadBody, optional: true } })
    input: Input<'leadId', undefined, RejectLeadBody | undefined>,
  ): Promise<LeadResponse> {
    return toLeadResponse(
      await this.rejectLead.execute(vendorId, input.params.leadId, input.body?.comment ?? null),
    );
  }

  /** No body; any body is ignored (D38). */
  @Put(':leadId/archive')
  @Success()
  async archive(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['leadId'] }) input: Input<'leadId'>,
  ): Promise<LeadResponse> {
    return toLeadResponse(await this.archiveLead.execute(vendorId, input.params.leadId));
  }
}
