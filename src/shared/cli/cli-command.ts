import type { INestApplicationContext } from '@nestjs/common';
import type { EnvironmentVariables } from '../../config/environment';

/** One `--name <value>` option of a command; every option of the admin CLI takes a value and is required. */
export interface CliOption<T> {
  /** what the usage line shows after the flag, e.g. `<vendorId>` */
  value: string;
  /** one line for `<command> --help` */
  description: string;
  /** turns the text into the value `run` receives; a CliUsageError here is a usage error (exit 2) */
  parse: (raw: string) => T;
}

/**
 * One admin command: `node dist/cli.js <name> --option value ...` (docs/configuration.md
 * "Administration CLI"). src/cli.ts parses the options before anything runs, builds the application
 * context, calls `run` and prints what it returns as one JSON object.
 */
export interface CliCommand<O extends object = Record<string, unknown>> {
  name: string;
  summary: string;
  options: { [K in keyof O]-?: CliOption<O[K]> };
  /** settings the command fixes over the environment (db:migrate: `{ MIGRATIONS_RUN: false }`) */
  config?: Partial<EnvironmentVariables>;
  /**
   * a ValidationError here (an option value the command's rules refuse) is a usage error (exit 2);
   * any other error is a refusal (exit 1)
   */
  run(app: INestApplicationContext, options: O): Promise<object>;
}

/**
 * Declares a command with its option types inferred from `options`, for a list of commands: `run`
 * receives exactly what those options parse to (src/cli.ts), so the widening is safe.
 */
export function cliCommand<O extends object>(command: CliCommand<O>): CliCommand {
  return command as unknown as CliCommand;
}

/** An option value that does not fit the command's grammar: exit 2, nothing done. */
export class CliUsageError extends Error {}

/** The option text as given. */
export function text(raw: string): string {
  return raw;
}

/** An id: a positive integer. */
export function positiveInteger(raw: string): number {
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > Number.MAX_SAFE_INTEGER) {
    throw new CliUsageError('It must be a positive integer.');
  }
  return Number(raw);
}
