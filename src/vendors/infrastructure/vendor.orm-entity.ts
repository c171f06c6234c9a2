import { Column, Entity } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../shared/infrastructure/database/columns';

// Tables, indexes and foreign keys as migration 1763700000000 creates them (docs/architecture.md,
// "Schema: migrations and entities"). A foreign key names the table it refers to, as the SQL does.

@Entity('vendors')
export class VendorOrmEntity {
  @IdColumn() id!: number;
  @Column({ type: 'varchar', length: 255 }) name!: string;
  @DateTimeColumn({ name: 'created_at' }) createdAt!: Date;
}
