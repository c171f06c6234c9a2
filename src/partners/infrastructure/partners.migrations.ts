import type { MigrationInterface } from 'typeorm';
import { Partners1763700000100 } from './1763700000100-partners';
import { Invitations1763700000110 } from './1763700000110-invitations';
import { VendorPartnerListing1763700000700 } from './1763700000700-vendor-partner-listing';

/** Migrations of the partners module, oldest first. */
export const partnersMigrations: (new () => MigrationInterface)[] = [
  Partners1763700000100,
  Invitations1763700000110,
  VendorPartnerListing1763700000700,
];
