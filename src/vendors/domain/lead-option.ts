import { SHORT_TEXT, codePointLength, isBlank } from '../../shared/domain/text';
import { ValidationError } from '../../shared/domain/domain-error';

/** The two dropdowns a vendor configures for its leads (docs/api.md Lead.source / Lead.status, D15). */
export type LeadOptionKind = 'source' | 'status';
export const LEAD_OPTION_KINDS: readonly LeadOptionKind[] = ['source', 'status'];

export interface LeadOption {
  id: number;
  vendorId: number;
  kind: LeadOptionKind;
  label: string;
}

export function validateLeadOption(kind: string, label: string): { kind: LeadOptionKind; label: string } {
  const errors = [];
  if (!LEAD_OPTION_KINDS.includes(kind as LeadOptionKind)) {
    errors.push({ field: 'kind', error: 'must be source or status' });
  }
  if (isBlank(label)) errors.push({ field: 'label', error: 'must not be blank' });
  else if (codePointLength(label) > SHORT_TEXT)
    errors.push({ field: 'label', error: `must be at most ${SHORT_TEXT} characters` });
  if (errors.length > 0) throw new ValidationError(errors);
  return { kind: kind as LeadOptionKind, label };
}
