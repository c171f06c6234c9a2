import type { INestApplicationContext } from '@nestjs/common';

export interface CliOption {
  /** what to write after the flag in the usage line, e.g. `<vendorId>` */
  value: string;
  /** a positive integer id */
  id?: boolean;
}

/** One admin command: `node dist/cli.js <name> --option value`. It returns the JSON to print. */
export interface CliCommand {
  name: string;
  summary: string;
  options: Record<string, CliOption>;
  /** run with the application context; migrations are applied first unless this says false */
  runsMigrationsFirst?: boolean;
  run(app: INestApplicationContext, options: Record<string, string>): Promise<object>;
}

export class CliUsageError extends Error {}

export function idOption(options: Record<string, string>, name: string): number {
  const raw = options[name]!;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > Number.MAX_SAFE_INTEGER) {
    throw new CliUsageError(`--${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}
