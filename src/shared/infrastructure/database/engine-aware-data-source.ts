import { DataSource } from 'typeorm';
import { alignColumnsWithEngine } from './columns';

/**
 * TypeORM's DataSource, with the entities' columns made what the migrations create on the engine
 * it connects to (columns.ts) as soon as the metadata is built: before any query, schema diff or
 * `migration:generate` reads it. The server, the CLI and the TypeORM CLI all use this class.
 */
export class EngineAwareDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    alignColumnsWithEngine(this);
  }
}
