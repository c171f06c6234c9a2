import { FieldError } from '../../shared/domain/domain-error';
import { LeadDetails } from '../domain/lead-details';

/**
 * POST leads' own checks of a request body (D13, D14, D16, D17, D18): the lead fields it carries
 * (unknown fields dropped, D5) and every offending field. D15's option ids are not checked here.
 */
export abstract class LeadRequestValidator {
  abstract validate(body: Record<string, unknown>): {
    details: Partial<LeadDetails>;
    errors: FieldError[];
  };
}
