import { ApiSchema } from '@nestjs/swagger';
import { PathId } from '../../shared/http/query-fields';
import { RequiredString, SHORT_TEXT } from '../../shared/http/validation';

/**
 * X20: the token of an invite link `PORTAL_URL/invitations/<token>`, as the portal read it from the
 * path. A real token is 43 base64url characters; any other string of up to 255 characters (D14) is
 * simply unknown (404), a longer one VALIDATION_FAILED, so no unbounded value is ever hashed.
 */
@ApiSchema({ name: 'AcceptInvitationRequest' })
export class AcceptInvitationBody {
  @RequiredString(SHORT_TEXT, {
    description: 'the last path segment of the invite link',
    example: 'pQ3h0wq2mZbJ1Yl7Kx9n4VtR8sD6aE5fGcHuIoPzWyX',
  })
  token!: string;
}

export class PartnerUserPath {
  @PathId('the partner') partnerId!: number;
  @PathId('the partner user') userId!: number;
}
