import { Controller, Get, Post } from '@nestjs/common';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Success } from '../../shared/http/envelope';
import { Input, ValidInput } from '../../shared/http/request-input';
import { Page } from '../../shared/application/page';
import { AddPartnerUsersUseCase } from '../application/add-partner-users.use-case';
import { InvitePartnerUseCase } from '../application/invite-partner.use-case';
import { ListPartnerUsersUseCase } from '../application/list-partner-users.use-case';
import { ReinvitePartnerUseCase } from '../application/reinvite-partner.use-case';
import { PARTNER_USER_SORT_KEYS, PartnerUserSortKey } from '../domain/partner-user';
import { AddPartnerUsersBody, InvitePartnerBody, ReinvitePartnerBody } from './partner.dto';
import {
  PartnerResponse,
  PartnerUserResponse,
  toPartnerResponse,
  toPartnerUserResponse,
  toUserRequest,
} from './partner.responses';

interface UserListQuery {
  page: number;
  perPage: number;
  sortBy: PartnerUserSortKey;
}

/** api.md endpoints 1-4. */
@Controller('partners')
export class PartnersController {
  constructor(
    private readonly invitePartner: InvitePartnerUseCase,
    private readonly reinvitePartner: ReinvitePartnerUseCase,
    private readonly addPartnerUsers: AddPartnerUsersUseCase,
    private readonly listPartnerUsers: ListPartnerUsersUseCase,
  ) {}

  @Post()
  @Success('PARTNER_INVITE_SUCCESSFUL')
  async invite(
    @CurrentVendor() vendorId: number,
    @ValidInput({ body: { type: InvitePartnerBody } }) input: Input<never, undefined, InvitePartnerBody>,
  ): Promise<PartnerResponse> {
    const b = input.body;
    const result = await this.invitePartner.execute(vendorId, {
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
    });
    return toPartnerResponse(result.partner, result.users);
  }

  @Post(':partnerId/reinvite')
  @Success('PARTNER_REINVITE_SUCCESSFUL')
  async reinvite(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['partnerId'], body: { type: ReinvitePartnerBody } })
    input: Input<'partnerId', undefined, ReinvitePartnerBody>,
  ): Promise<null> {
    await this.reinvitePartner.execute(vendorId, input.params.partnerId, input.body.emailAddress);
    return null;
  }

  @Post(':partnerId/users')
  @Success('PARTNER_USERS_INVITE_SUCCESSFUL')
  async addUsers(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['partnerId'], body: { type: AddPartnerUsersBody } })
    input: Input<'partnerId', undefined, AddPartnerUsersBody>,
  ): Promise<PartnerUserResponse[]> {
    const created = await this.addPartnerUsers.execute(
      vendorId,
      input.params.partnerId,
      input.body.users.map(toUserRequest),
    );
    return created.map(toPartnerUserResponse);
  }

  @Get(':partnerId/users')
  @Success()
  async listUsers(
    @CurrentVendor() vendorId: number,
    @ValidInput({
      params: ['partnerId'],
      query: (q): UserListQuery => ({
        page: q.integer('page', { default: 0, min: 0 }),
        perPage: q.integer('perPage', { default: 20, min: 1, max: 100 }), // D24
        sortBy: q.enumOrDefault('sortBy', PARTNER_USER_SORT_KEYS, 'id'),
      }),
    })
    input: Input<'partnerId', UserListQuery>,
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
