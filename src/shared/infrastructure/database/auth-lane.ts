import { OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { authLaneOptions } from './data-source-options';

/**
 * The data source of the API-key lookup that every request makes before anything else (D8). On
 * MySQL it is a pool of two connections of its own, so a wrong key is refused at once even while
 * every connection of the main pool is taken (docs/operations.md); on SQLite, whose reads never
 * wait for a pool, it is the main data source.
 */
export class AuthLane implements OnApplicationShutdown {
  private constructor(
    readonly dataSource: DataSource,
    private readonly ownsDataSource: boolean,
  ) {}

  static async open(main: DataSource, config: AppConfig): Promise<AuthLane> {
    const options = authLaneOptions(config.database, config.databaseTimeoutMs);
    if (!options) return new AuthLane(main, false);
    return new AuthLane(await new DataSource(options).initialize(), true);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.ownsDataSource && this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
