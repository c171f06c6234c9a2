import type { DatabaseSchema } from '../../shared/infrastructure/database/database-schema';
import { Vendors1763700000000 } from './1763700000000-vendors';
import { ApiKeyOrmEntity } from './api-key.orm-entity';
import { LeadOptionOrmEntity } from './lead-option.orm-entity';
import { VendorOrmEntity } from './vendor.orm-entity';

/** The vendors module's tables: vendors, api_keys, lead_options. Migrations oldest first. */
export const vendorsSchema: DatabaseSchema = {
  entities: [VendorOrmEntity, ApiKeyOrmEntity, LeadOptionOrmEntity],
  migrations: [Vendors1763700000000],
};
