import { CliCommand } from '../../cli/cli-command';
import { MigrationRunner } from './migration-runner';

export const databaseCommands: CliCommand[] = [
  {
    name: 'db:migrate',
    summary: 'apply pending database migrations',
    options: {},
    runsMigrationsFirst: false,
    run: async (app) => ({ applied: await app.get(MigrationRunner).run() }),
  },
];
