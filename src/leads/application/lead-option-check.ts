import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { FieldError } from '../../shared/domain/domain-error';
import { LeadOptionRepository } from '../../vendors';

/** The two option fields of a lead, as they may arrive (any JSON value) or be stored (id or null). */
export interface LeadOptionFields {
  source?: unknown;
  status?: unknown;
}

/** D15: the error of a `source`/`status` that is not one of the vendor's options of that kind. */
export function unknownOptionError(kind: 'source' | 'status'): FieldError {
  return { field: kind, error: `must be the id of one of the vendor's lead ${kind} values` };
}

/**
 * D15: `source` and `status` must be ids of the caller's vendor's lead options of the matching
 * kind. Another vendor's option, an option of the other kind or an unknown id is VALIDATION_FAILED
 * naming the field. It runs once, at the HTTP edge (LeadOptionInputCheck), in the validation pass
 * of the body's shape: its errors are listed with the others (D18) and come before any existence
 * check (D37). The use cases that write a lead rely on that; the bulk import checks its rows
 * against the vendor's options itself, read once for the file (X13).
 */
@Injectable()
export class LeadOptionCheck {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly options: LeadOptionRepository,
  ) {}

  /** The offending fields; values that are not ids at all are left to shape validation. */
  async findErrors(vendorId: number, fields: LeadOptionFields): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const kind of ['source', 'status'] as const) {
      const id = fields[kind];
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) continue;
      const found = await this.uow.read(() => this.options.findForVendor(vendorId, kind, [id]));
      if (found.length === 0) errors.push(unknownOptionError(kind));
    }
    return errors;
  }
}
