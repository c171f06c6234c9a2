import { DuplicateEntryError } from '../../shared/domain/domain-error';

/**
 * D27: another lead of the (vendor, partner) has this email address. The one answer of create,
 * replace and update, of the unique index when two requests race, and of the bulk import (X13).
 */
export function leadEmailTaken(): DuplicateEntryError {
  return new DuplicateEntryError('emailAddress', 'a lead with this email address already exists for this partner');
}
