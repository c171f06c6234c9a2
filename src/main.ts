import { tuneHeap } from './shared/heap-tuning';
tuneHeap(); // before the application allocates: docs/performance.md, "The old generation grows by 30%, not up to 4x" and "V8's allocation-site pretenuring is off"

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppModule } from './app.module';
import { createServerApp, drainAndClose, listen } from './bootstrap';
import { ConfigError } from './config/app-config';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  const app = await createServerApp(AppModule);
  const bound = await listen(app);
  const logger = new Logger('Server');
  logger.log(
    `public API listening on ${bound.api}; ` +
      (bound.management ? `health, metrics and API docs on ${bound.management}` : 'management port disabled'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received, shutting down`);
    drainAndClose(app, SHUTDOWN_DEADLINE_MS).then(
      (outcome) => {
        if (outcome === 'timeout') logger.error('shutdown took longer than 10 s, exiting');
        process.exit(outcome === 'closed' ? 0 : 1);
      },
      (error: unknown) => {
        logger.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Errors of a database that cannot be reached or entered at start: one line, no stack (docs/operations.md). */
const DATABASE_START_ERRORS = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'SQLITE_CANTOPEN',
]);

main().catch((error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else if (typeof code === 'string' && DATABASE_START_ERRORS.has(code)) {
    process.stderr.write(
      `failed to start: the database cannot be used (${code}: ${(error as Error).message})\n`,
    );
  } else {
    process.stderr.write(
      `failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
