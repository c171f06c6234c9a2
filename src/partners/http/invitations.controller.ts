import { Controller, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Success } from '../../shared/http/envelope';
import { Input, ValidInput } from '../../shared/http/request-input';
import { AcceptInvitationUseCase } from '../application/accept-invitation.use-case';
import { AcceptInvitationBody } from './invitation.dto';
import { PartnerUserResponse, toPartnerUserResponse } from './partner.responses';

/** X20 `data`: the user's partner and the user, lastActiveAt set (D4: no token, no invitation id). */
export interface AcceptedInvitationResponse {
  partnerId: number;
  user: PartnerUserResponse;
}

/** X20: called by the vendor's partner portal when a partner user follows an invite link. */
@Controller('invitations')
export class InvitationsController {
  constructor(private readonly acceptInvitation: AcceptInvitationUseCase) {}

  @Post('accept')
  @Success() // D3: message null, like every operation api.md lists no code for
  @ApiOperation({
    operationId: 'acceptInvitation',
    tags: ['partners'],
    summary: 'Accept an invitation (X20)',
    description:
      "The token of an invite link `PORTAL_URL/invitations/<token>`. Answers the user's partner and the " +
      'user with lastActiveAt set to now. An unknown, already accepted, superseded (a later reinvite) or ' +
      "expired (14 days) token, or one of another vendor's invitations: 404 RESOURCE_NOT_FOUND.",
  })
  async accept(
    @CurrentVendor() vendorId: number,
    @ValidInput({ body: { type: AcceptInvitationBody } })
    input: Input<never, undefined, AcceptInvitationBody>,
  ): Promise<AcceptedInvitationResponse> {
    const accepted = await this.acceptInvitation.execute(vendorId, input.body.token);
    return { partnerId: accepted.partnerId, user: toPartnerUserResponse(accepted.user) };
  }
}
