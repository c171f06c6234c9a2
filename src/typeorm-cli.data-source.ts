import 'reflect-metadata';
import { AppConfig } from './config/app-config';
import { databaseSchema } from './database';
import { schemaDataSource } from './shared/infrastructure/database/schema-data-source';

/**
 * The data source of the TypeORM CLI (`npm run migration:generate`, docs/architecture.md, "Schema:
 * migrations and entities"): the database of DATABASE_URL, every entity and migration. Not imported
 * by the service.
 */
export const dataSource = schemaDataSource(AppConfig.fromEnv(process.env).database, databaseSchema);
