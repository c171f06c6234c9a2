import type { MigrationInterface } from 'typeorm';
import { Contacts1763700000410 } from '../../contacts/infrastructure/1763700000410-contacts';
import { Leads1763700000400 } from './1763700000400-leads';
import { LeadCounts1763700000420 } from './1763700000420-lead-counts';
import { LeadHistory1763700000710 } from './1763700000710-lead-history';

/**
 * Migrations of the leads module, oldest first. The contacts table is listed here too: it is made
 * from leads (a foreign key to leads.id), so it is created right after them.
 */
export const leadsMigrations: (new () => MigrationInterface)[] = [
  Leads1763700000400,
  Contacts1763700000410,
  LeadCounts1763700000420,
  LeadHistory1763700000710,
];
