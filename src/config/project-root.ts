import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The service's own folder, the one with its package.json: two levels above this file, both in
 * `src/config/` (tests) and in `dist/config/` (the built service). Relative paths of the
 * configuration are resolved against it, not against the working directory
 * (docs/configuration.md, DATABASE_URL).
 */
export const PROJECT_ROOT = resolve(__dirname, '..', '..');

let version: string | undefined;

/** The `version` of the service's package.json (`node dist/cli.js --version`, the OpenAPI document). */
export function serviceVersion(): string {
  version ??= (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  return version;
}
