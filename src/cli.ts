import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliModule } from './cli.module';
import { AppConfig, ConfigError, databaseName } from './config/app-config';
import { serviceVersion } from './config/project-root';
import { leadCommands } from './leads';
import { CliCommand, CliOption, CliUsageError } from './shared/cli/cli-command';
import { DomainError, NotFoundError, ValidationError } from './shared/domain/domain-error';
import { databaseCommands } from './shared/infrastructure/database/database.commands';
import { AppLogger } from './shared/logging.module';
import { vendorCommands } from './vendors';

/** Each module lists its commands in its own `cli/` folder. */
export const commands: CliCommand[] = [...vendorCommands, ...leadCommands, ...databaseCommands];

export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Exit codes (docs/configuration.md "Administration CLI"): 2 when the command line is wrong (its
 * grammar, an option value, the configuration), 1 when a well-formed command could not be done.
 */
const OK = 0;
const REFUSED = 1;
const USAGE = 2;

function usageOf(command: CliCommand): string {
  return Object.entries<CliOption<unknown>>(command.options)
    .map(([name, option]) => `--${name} ${option.value}`)
    .join(' ');
}

function describe(error: unknown): string {
  if (error instanceof DomainError) {
    const details = error.fieldErrors.map((e) => `--${e.field} ${e.error}`).join('; ');
    return details || error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The commander program: one sub-command per CliCommand, every option required and parsed before
 * anything runs, help on stdout. Commander reports usage errors by throwing (exitOverride).
 */
function program(out: CliOutput): Command {
  const program = new Command('node dist/cli.js')
    .usage('<command> --option value ...')
    .description(
      'Administration of the partner relationship service. A command that succeeds prints one JSON object on stdout.',
    )
    .version(serviceVersion(), '-V, --version', 'print the version of the service and exit')
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.stdout(s), writeErr: (s) => out.stderr(s) })
    .showHelpAfterError('(node dist/cli.js --help lists the commands; <command> --help shows one)')
    // the commands list shows each command's options, as its usage line does
    .configureHelp({
      subcommandTerm: (c) => `${c.name()} ${c.usage().replace(/^\[options\]/, '')}`.trimEnd(),
    })
    .addHelpText(
      'after',
      '\nConfiguration comes from the environment (DATABASE_URL, MIGRATIONS_RUN, LOG_LEVEL, ...), as for the server.' +
        '\nExit codes: 0 done, 1 refused (nothing changed), 2 usage error: a wrong command, option, option value' +
        ' or configuration (nothing changed).',
    );
  for (const command of commands) {
    const sub = program.command(command.name).description(command.summary).usage(usageOf(command));
    for (const [name, option] of Object.entries<CliOption<unknown>>(command.options)) {
      sub.addOption(
        new Option(`--${name} ${option.value}`, option.description).makeOptionMandatory().argParser((raw) => {
          try {
            return option.parse(raw);
          } catch (error) {
            if (error instanceof CliUsageError) throw new InvalidArgumentError(error.message);
            throw error;
          }
        }),
      );
    }
    sub.action(async (options: Record<string, unknown>) => {
      out.stdout(`${JSON.stringify(await execute(command, options))}\n`);
    });
  }
  return program;
}

/** Runs a command whose options are parsed: its own application context, closed afterwards. */
async function execute(command: CliCommand, options: Record<string, unknown>): Promise<object> {
  const app = await NestFactory.createApplicationContext(CliModule.forCommand(command.config), {
    logger: false,
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  try {
    return await command.run(app, options);
  } catch (error) {
    // "vendor not found" most often means another database than the operator thought: name it
    if (error instanceof NotFoundError) {
      throw new Error(`${describe(error)} in ${databaseName(app.get(AppConfig).database)}`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    await app.close();
  }
}

/** Runs one command line; returns the exit code. Exported so tests run the real CLI in-process. */
export async function runCli(argv: string[], out: CliOutput): Promise<number> {
  try {
    await program(out).parseAsync(argv, { from: 'user' });
    return OK;
  } catch (error) {
    // commander has written its message (or the help) already
    if (error instanceof CommanderError) return error.exitCode === 0 ? OK : USAGE;
    out.stderr(`error: ${describe(error)}\n`);
    // An option value the command's rules refuse (a blank name) is wrong on the command line, like
    // one its grammar refuses: a usage error too. Nothing was written: the rule is checked first.
    return error instanceof ConfigError || error instanceof ValidationError ? USAGE : REFUSED;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then((code) => process.exit(code));
}
