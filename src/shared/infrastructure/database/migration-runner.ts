import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { engineOf } from './database-engine';

const LOCK_NAME = 'prm_schema_migrations';

/**
 * Applies pending migrations. On MySQL several instances may start at once against one database, so
 * the run holds a named lock (GET_LOCK) and the others wait, then find nothing left to do.
 */
@Injectable()
export class MigrationRunner {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(private readonly dataSource: DataSource) {}

  async run(): Promise<string[]> {
    if (engineOf(this.dataSource) === 'sqlite') return this.apply();
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [row] = (await runner.query('SELECT GET_LOCK(?, 60) AS acquired', [LOCK_NAME])) as {
        acquired: number | string | null;
      }[];
      if (Number(row?.acquired) !== 1) throw new Error('could not acquire the migration lock within 60 s');
      try {
        return await this.apply();
      } finally {
        await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
      }
    } finally {
      await runner.release();
    }
  }

  private async apply(): Promise<string[]> {
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) this.logger.log(`applied migration ${migration.name}`);
    return applied.map((migration) => migration.name);
  }
}
