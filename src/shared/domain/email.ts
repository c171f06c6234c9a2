import { foldCase } from './text';

/**
 * D13: addresses are stored as sent but compared case-insensitively everywhere.
 * The normalized form is what unique indexes and lookups use.
 */
export function normalizeEmail(address: string): string {
  return foldCase(address);
}
