import { CliCommand, cliCommand } from '../../cli/cli-command';
import { MigrationRunner } from './migration-runner';

export const databaseCommands: CliCommand[] = [
  cliCommand({
    name: 'db:migrate',
    summary: 'apply pending database migrations',
    options: {},
    // the command applies them itself, to print their names, even with MIGRATIONS_RUN=true
    config: { MIGRATIONS_RUN: false },
    run: async (app) => ({ applied: await app.get(MigrationRunner).run() }),
  }),
];
