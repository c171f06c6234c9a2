import { ApiSchema } from '@nestjs/swagger';
import { IdField, ListField, TextField } from '../../shared/http/response-fields';
import type { LeadOption } from '../domain/lead-option';

/** One lead source or status value (X11): exactly its id and label, never its vendor (D4). */
@ApiSchema({ name: 'LeadOption' })
export class LeadOptionResponse {
  @IdField({ description: 'the id a lead’s `source` or `status` holds (D15)', example: 3 }) id!: number;
  @TextField({ example: 'Trade fair' }) label!: string;
}

/** X11: the vendor's lead sources and lead statuses, each ordered by id. */
@ApiSchema({ name: 'LeadOptions' })
export class LeadOptionsResponse {
  @ListField(LeadOptionResponse, { description: 'the values of `Lead.source`, ordered by id' })
  sources!: LeadOptionResponse[];
  @ListField(LeadOptionResponse, { description: 'the values of `Lead.status`, ordered by id' })
  statuses!: LeadOptionResponse[];
}

export function toLeadOptionsResponse(options: readonly LeadOption[]): LeadOptionsResponse {
  const of = (kind: LeadOption['kind']) =>
    options.filter((o) => o.kind === kind).map(({ id, label }) => ({ id, label }));
  return { sources: of('source'), statuses: of('status') };
}
