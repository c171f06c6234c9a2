import { Injectable } from '@nestjs/common';
import { FieldError } from '../../shared/domain/domain-error';
import { InputCheck } from '../../shared/http/request-input';
import { LeadOptionCheck, LeadOptionFields } from '../application/lead-option-check';

/**
 * D15 at the edge, in the same validation pass as the shape of the body, so an unknown `source`
 * is listed together with a blank `firstName` (D18). The one place D15 runs for a request: the use
 * cases do not check again.
 */
@Injectable()
export class LeadOptionInputCheck extends InputCheck<LeadOptionFields> {
  constructor(private readonly options: LeadOptionCheck) {
    super();
  }

  check(vendorId: number, body: LeadOptionFields): Promise<FieldError[]> {
    return this.options.findErrors(vendorId, body);
  }
}
