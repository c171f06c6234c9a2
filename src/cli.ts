import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CliModule } from './cli.module';
import { AppLogger } from './shared/logging.module';
import { ConfigError } from './config/app-config';
import { CliCommand, CliUsageError } from './shared/cli/cli-command';
import { DomainError } from './shared/domain/domain-error';
import { leadCommands } from './leads';
import { databaseCommands } from './shared/infrastructure/database/database.commands';
import { vendorCommands } from './vendors';

export const commands: CliCommand[] = [...vendorCommands, ...leadCommands, ...databaseCommands];

export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

function usageOf(command: CliCommand): string {
  const options = Object.entries(command.options).map(([name, o]) => `--${name} ${o.value}`);
  return [`node dist/cli.js ${command.name}`, ...options].join(' ');
}

function help(): string {
  return [
    'Administration of the partner relationship service. Every command prints one JSON object on stdout.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${usageOf(c)}\n      ${c.summary}`),
    '',
    'Configuration comes from the environment (DATABASE_URL, MIGRATIONS_RUN, ...), as for the server.',
  ].join('\n');
}

function parse(command: CliCommand, args: string[]): Record<string, string> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(
        Object.keys(command.options).map((name) => [name, { type: 'string' as const }]),
      ),
    }));
  } catch (error) {
    throw new CliUsageError(`${(error as Error).message}\nusage: ${usageOf(command)}`);
  }
  const missing = Object.keys(command.options).filter((name) => values[name] === undefined);
  if (missing.length > 0) {
    throw new CliUsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}\nusage: ${usageOf(command)}`);
  }
  return values as Record<string, string>;
}

function describe(error: unknown): string {
  if (error instanceof DomainError) {
    const details = error.fieldErrors.map((e) => `--${e.field} ${e.error}`).join('; ');
    return details || error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Runs one command; returns the exit code. Exported so tests run the real CLI in-process. */
export async function runCli(argv: string[], out: CliOutput): Promise<number> {
  try {
    return await run(argv, out);
  } catch (error) {
    out.stderr(`error: ${describe(error)}\n`);
    return error instanceof CliUsageError || error instanceof ConfigError ? 2 : 1;
  }
}

async function run(argv: string[], out: CliOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out.stdout(`${help()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    out.stderr(`error: unknown command ${JSON.stringify(name)}\n\n${help()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    out.stdout(`usage: ${usageOf(command)}\n  ${command.summary}\n`);
    return 0;
  }
  const options = parse(command, rest);
  const migrationsRun = process.env.MIGRATIONS_RUN;
  if (command.runsMigrationsFirst === false) process.env.MIGRATIONS_RUN = 'false';
  let app: INestApplicationContext;
  try {
    app = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
  } finally {
    if (migrationsRun === undefined) delete process.env.MIGRATIONS_RUN;
    else process.env.MIGRATIONS_RUN = migrationsRun;
  }
  app.useLogger(app.get(AppLogger));
  try {
    const result = await command.run(app, options);
    out.stdout(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then((code) => process.exit(code));
}
