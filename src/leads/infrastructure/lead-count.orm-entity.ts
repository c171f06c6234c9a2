import { Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn, PrimaryBigIntColumn } from '../../shared/infrastructure/database/columns';

/**
 * The maintained lead counts as migration 1763700000420 creates them. Written and read by the
 * hand-written SQL of LeadQueries (an upsert that adds to `total`, which TypeORM cannot write), not
 * through this class: it declares the table so that the schema diff and `migration:generate` know
 * it (docs/architecture.md, "Schema: migrations and entities").
 */
@Entity('lead_counts')
export class LeadCountOrmEntity {
  @PrimaryBigIntColumn({ name: 'vendor_id' }) vendorId!: number;
  @PrimaryBigIntColumn({ name: 'partner_id' }) partnerId!: number;
  @PrimaryColumn({ type: 'boolean' }) archived!: boolean;
  @PrimaryColumn({ name: 'approval_status', type: 'varchar', length: 16 }) approvalStatus!: string;
  @PrimaryColumn({ type: 'int' }) slot!: number;
  @BigIntColumn() total!: number;
}
