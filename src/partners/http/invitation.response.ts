import { ApiSchema } from '@nestjs/swagger';
import { ObjectField, IdField } from '../../shared/http/response-fields';
import { PartnerUserResponse } from './partner.response';

/** X20 `data`: the user's partner and the user, lastActiveAt set (D4: no token, no invitation id). */
@ApiSchema({ name: 'AcceptedInvitation' })
export class AcceptedInvitationResponse {
  @IdField({ description: 'the partner the user belongs to' }) partnerId!: number;
  @ObjectField(PartnerUserResponse) user!: PartnerUserResponse;
}
