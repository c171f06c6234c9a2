import { Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Operation } from '../../shared/http/operation';
import { Input, ValidInput } from '../../shared/http/request-input';
import { AcceptInvitationUseCase } from '../application/accept-invitation.use-case';
import { AcceptInvitationBody } from './invitation.dto';
import { AcceptedInvitationResponse } from './invitation.response';
import { toPartnerUserResponse } from './partner.response';

/** X20: called by the vendor's partner portal when a partner user follows an invite link. */
@ApiTags('Partners')
@Controller('invitations')
export class InvitationsController {
  constructor(private readonly acceptInvitation: AcceptInvitationUseCase) {}

  @Operation({
    id: 'acceptInvitation',
    summary: 'Accept an invitation (X20)',
    description:
      'Called by the vendor’s partner portal with the token of an invite link `PORTAL_URL/invitations/<token>`. ' +
      'Answers the user’s partner and the user, with `lastActiveAt` set to now. An unknown, already accepted, ' +
      'superseded (a later reinvite of the same user by the same vendor) or expired (14 days) token, or one of ' +
      'another vendor’s invitations: the same 404 RESOURCE_NOT_FOUND. See docs/invitations.md.',
    data: AcceptedInvitationResponse, // D3: message null, like every operation without a success code
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Post('accept')
  async accept(
    @CurrentVendor() vendorId: number,
    @ValidInput({ body: { type: AcceptInvitationBody } })
    input: Input<undefined, undefined, AcceptInvitationBody>,
  ): Promise<AcceptedInvitationResponse> {
    const accepted = await this.acceptInvitation.execute(vendorId, input.body.token);
    return { partnerId: accepted.partnerId, user: toPartnerUserResponse(accepted.user) };
  }
}
