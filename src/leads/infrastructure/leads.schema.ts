import type { DatabaseSchema } from '../../shared/infrastructure/database/database-schema';
import { Leads1763700000400 } from './1763700000400-leads';
import { LeadCounts1763700000420 } from './1763700000420-lead-counts';
import { LeadHistory1763700000710 } from './1763700000710-lead-history';
import { LeadCountOrmEntity } from './lead-count.orm-entity';
import { LeadHistoryOrmEntity } from './lead-history.orm-entity';
import { LeadOrmEntity } from './lead.orm-entity';

/**
 * The leads module's tables: leads, lead_counts (LeadQueries' hand-written SQL only, declared all the
 * same so the schema parity test sees it) and lead_history. Migrations oldest first.
 */
export const leadsSchema: DatabaseSchema = {
  entities: [LeadOrmEntity, LeadCountOrmEntity, LeadHistoryOrmEntity],
  migrations: [Leads1763700000400, LeadCounts1763700000420, LeadHistory1763700000710],
};
