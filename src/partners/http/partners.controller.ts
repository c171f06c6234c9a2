import { Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Operation } from '../../shared/http/operation';
import { Input, ValidInput } from '../../shared/http/request-input';
import { Page } from '../../shared/application/page';
import { DuplicateEntryError } from '../../shared/domain/domain-error';
import { UserEmailConflictError } from '../application/duplicate-emails';
import { AddPartnerUsersUseCase } from '../application/add-partner-users.use-case';
import { GetPartnerUseCase } from '../application/get-partner.use-case';
import { InvitePartnerUseCase } from '../application/invite-partner.use-case';
import { ListPartnerUsersUseCase } from '../application/list-partner-users.use-case';
import { ListPartnersUseCase } from '../application/list-partners.use-case';
import { ReinvitePartnerUseCase } from '../application/reinvite-partner.use-case';
import {
  AddPartnerUsersBody,
  InvitePartnerBody,
  ListPartnerUsersQuery,
  ListPartnersQuery,
  PartnerPath,
  ReinvitePartnerBody,
} from './partner.dto';
import {
  PartnerResponse,
  PartnerUserResponse,
  toPartnerResponse,
  toPartnerUserResponse,
  toUserRequest,
} from './partner.response';

/** D13: a user's email address is named as the request names it, `users[2].emailAddress`. */
function userEmailField(error: unknown): never {
  if (error instanceof UserEmailConflictError) {
    throw new DuplicateEntryError(`users[${error.userIndex}].emailAddress`, error.message);
  }
  throw error;
}

/** Endpoints 1-4 (docs/api.md), and the partner reads X9, X10. */
@ApiTags('Partners')
@Controller('partners')
export class PartnersController {
  constructor(
    private readonly invitePartner: InvitePartnerUseCase,
    private readonly reinvitePartner: ReinvitePartnerUseCase,
    private readonly addPartnerUsers: AddPartnerUsersUseCase,
    private readonly listPartnerUsers: ListPartnerUsersUseCase,
    private readonly listPartners: ListPartnersUseCase,
    private readonly getPartner: GetPartnerUseCase,
  ) {}

  @Operation({
    id: 'invitePartner',
    summary: 'Invite a partner company',
    description:
      'A contact address that belongs to no partner user creates the partner, connects it to the caller’s ' +
      'vendor and creates its users: those in `users`, or, without `users`, one user made from the contact ' +
      '(D19). A contact address of a user of partner P connects P instead and creates only the users given; ' +
      'when P is connected already it is DUPLICATE_ENTRY (D20). A `users[i].emailAddress` that exists or ' +
      'repeats is DUPLICATE_ENTRY naming it, and nothing is written (D21). Each created user, and the contact ' +
      'of a connected P, gets one invite email once the write has committed (D35, D36).',
    message: 'PARTNER_INVITE_SUCCESSFUL',
    data: PartnerResponse,
    errors: ['DUPLICATE_ENTRY'],
  })
  @Post()
  async invite(
    @CurrentVendor() vendorId: number,
    @ValidInput({ body: { type: InvitePartnerBody } }) input: Input<undefined, undefined, InvitePartnerBody>,
  ): Promise<PartnerResponse> {
    const b = input.body;
    const result = await this.invitePartner
      .execute(vendorId, {
        profile: {
          companyName: b.companyName,
          description: b.description ?? null,
          website: b.website ?? null,
          country: b.country ?? null,
          companySize: b.companySize ?? null,
          contactName: b.contactName,
          contactEmailAddress: b.contactEmailAddress,
          contactPhone: b.contactPhone ?? null,
          contactRole: b.contactRole ?? null,
          type: b.type ?? null,
        },
        users: b.users ? b.users.map(toUserRequest) : null,
      })
      .catch(userEmailField);
    return toPartnerResponse(result.partner, result.users);
  }

  @Operation({
    id: 'listPartners',
    summary: 'List the vendor’s partners',
    description:
      'One page of the partners connected to the caller’s vendor (X9): those it invited and those connected to ' +
      'it by an invite of an existing partner (D20), so a partner shared by two vendors is listed by both. ' +
      '`users` is null in every entry (endpoint 4 lists a partner’s users). `keyword` is a literal, ' +
      'case-insensitive prefix of `companyName` or `contactEmailAddress`; `type` keeps one type. Sorted by ' +
      '`sortBy` in `sortDirection`, ties broken by id in the same direction. Parameters are validated as for ' +
      'the lead listing: a parameter given twice, a malformed integer or an unknown `sortDirection` or `type` ' +
      'is VALIDATION_FAILED, an unknown `sortBy` falls back to `createdAt`, unknown parameters are ignored ' +
      '(D33, D39).',
    data: { page: PartnerResponse },
  })
  @Get()
  async list(
    @CurrentVendor() vendorId: number,
    @ValidInput({ query: ListPartnersQuery }) input: Input<undefined, ListPartnersQuery>,
  ): Promise<Page<PartnerResponse>> {
    const page = await this.listPartners.execute({ vendorId, ...input.query });
    return {
      data: page.data.map((partner) => toPartnerResponse(partner, null)),
      page: page.page,
      perPage: page.perPage,
      totalItems: page.totalItems,
    };
  }

  @Operation({
    id: 'getPartner',
    summary: 'Read a partner',
    description:
      'The partner, with `users` null (X10). A partner that does not exist or is not connected to the caller’s ' +
      'vendor is 404 alike (D25); a partner connected to several vendors (D20) is read the same by each.',
    data: PartnerResponse,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Get(':partnerId')
  async get(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: PartnerPath }) input: Input<PartnerPath>,
  ): Promise<PartnerResponse> {
    return toPartnerResponse(await this.getPartner.execute(vendorId, input.params.partnerId), null);
  }

  @Operation({
    id: 'reinvitePartner',
    summary: 'Send a partner user’s invite again',
    description:
      'Sends one invite email to `emailAddress`, which must belong to a user of this partner (404 naming ' +
      '`emailAddress` otherwise, D23), and sets the partner’s `invitedAt`. A partner not connected to the ' +
      'caller’s vendor is 404 (D25).',
    message: 'PARTNER_REINVITE_SUCCESSFUL',
    data: null,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Post(':partnerId/reinvite')
  async reinvite(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: PartnerPath, body: { type: ReinvitePartnerBody } })
    input: Input<PartnerPath, undefined, ReinvitePartnerBody>,
  ): Promise<null> {
    await this.reinvitePartner.execute(vendorId, input.params.partnerId, input.body.emailAddress);
    return null;
  }

  @Operation({
    id: 'addPartnerUsers',
    summary: 'Add users to a partner',
    description:
      'Creates 1 to 100 users (D22) and sends each one invite email (D36). An address that belongs to an ' +
      'existing user or repeats in the list is DUPLICATE_ENTRY naming `users[i].emailAddress`; nothing is ' +
      'written (D21). A partner not connected to the caller’s vendor is 404 (D25).',
    message: 'PARTNER_USERS_INVITE_SUCCESSFUL',
    data: [PartnerUserResponse],
    errors: ['DUPLICATE_ENTRY', 'RESOURCE_NOT_FOUND'],
  })
  @Post(':partnerId/users')
  async addUsers(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: PartnerPath, body: { type: AddPartnerUsersBody } })
    input: Input<PartnerPath, undefined, AddPartnerUsersBody>,
  ): Promise<PartnerUserResponse[]> {
    const created = await this.addPartnerUsers
      .execute(vendorId, input.params.partnerId, input.body.users.map(toUserRequest))
      .catch(userEmailField);
    return created.map(toPartnerUserResponse);
  }

  @Operation({
    id: 'listPartnerUsers',
    summary: 'List a partner’s users',
    description:
      'One page of the partner’s users, sorted ascending by `sortBy` with ties broken by id (D24). Every ' +
      'vendor connected to the partner sees all of its users (D40); a partner not connected to the caller’s ' +
      'vendor is 404 (D25).',
    data: { page: PartnerUserResponse },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Get(':partnerId/users')
  async listUsers(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: PartnerPath, query: ListPartnerUsersQuery })
    input: Input<PartnerPath, ListPartnerUsersQuery>,
  ): Promise<Page<PartnerUserResponse>> {
    const page = await this.listPartnerUsers.execute(vendorId, {
      partnerId: input.params.partnerId,
      ...input.query,
    });
    return {
      data: page.data.map(toPartnerUserResponse),
      page: page.page,
      perPage: page.perPage,
      totalItems: page.totalItems,
    };
  }
}
