import type { DatabaseSchema } from '../../shared/infrastructure/database/database-schema';
import { Partners1763700000100 } from './1763700000100-partners';
import { Invitations1763700000110 } from './1763700000110-invitations';
import { VendorPartnerListing1763700000700 } from './1763700000700-vendor-partner-listing';
import { PartnerUserSortKeys1763700001000 } from './1763700001000-partner-user-sort-keys';
import { InvitationOrmEntity } from './invitation.orm-entity';
import { PartnerUserOrmEntity } from './partner-user.orm-entity';
import { PartnerOrmEntity } from './partner.orm-entity';
import { VendorPartnerOrmEntity } from './vendor-partner.orm-entity';

/** The partners module's tables: partners, partner_users, vendor_partners, invitations. Migrations oldest first. */
export const partnersSchema: DatabaseSchema = {
  entities: [PartnerOrmEntity, PartnerUserOrmEntity, VendorPartnerOrmEntity, InvitationOrmEntity],
  migrations: [
    Partners1763700000100,
    Invitations1763700000110,
    VendorPartnerListing1763700000700,
    PartnerUserSortKeys1763700001000,
  ],
};
