import { RequiredString } from '../../shared/http/validation';

/**
 * X20: the token of an invite link `PORTAL_URL/invitations/<token>`, as the portal read it from the
 * path. A real token is 43 base64url characters; any other string of up to 255 characters (D14) is
 * simply unknown (404), a longer one VALIDATION_FAILED, so no unbounded value is ever hashed.
 */
export class AcceptInvitationBody {
  @RequiredString() token!: string;
}
