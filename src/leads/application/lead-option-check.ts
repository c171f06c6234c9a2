import { Injectable } from '@nestjs/common';
import { FieldError, ValidationError } from '../../shared/domain/domain-error';
import { LeadOptionRepository } from '../../vendors/application/ports';
import { LeadDetailsPatch } from '../domain/lead-details';

/**
 * D15: `source` and `status` must be ids of the caller's vendor's lead options of the matching
 * kind. Another vendor's option, an option of the other kind or an unknown id is VALIDATION_FAILED
 * naming the field; this runs before any existence check (D37).
 */
@Injectable()
export class LeadOptionCheck {
  constructor(private readonly options: LeadOptionRepository) {}

  async check(vendorId: number, details: LeadDetailsPatch): Promise<void> {
    const errors: FieldError[] = [];
    for (const kind of ['source', 'status'] as const) {
      const id = details[kind];
      if (id === null || id === undefined) continue;
      const found = await this.options.findForVendor(vendorId, kind, [id]);
      if (found.length === 0)
        errors.push({ field: kind, error: `must be the id of one of the vendor's lead ${kind} values` });
    }
    if (errors.length > 0) throw new ValidationError(errors);
  }
}
