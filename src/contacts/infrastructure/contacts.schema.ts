import type { DatabaseSchema } from '../../shared/infrastructure/database/database-schema';
import { Contacts1763700000410 } from './1763700000410-contacts';
import { ContactOrmEntity } from './contact.orm-entity';

/**
 * The contacts module's table. A contact is made from a lead (a foreign key to leads.id), so its
 * migration's timestamp puts it right after the leads table.
 */
export const contactsSchema: DatabaseSchema = {
  entities: [ContactOrmEntity],
  migrations: [Contacts1763700000410],
};
