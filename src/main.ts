import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppModule } from './app.module';
import { createServerApp, listen } from './bootstrap';
import { ConfigError } from './config/app-config';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  const app = await createServerApp(AppModule);
  await listen(app);
  const logger = new Logger('Server');
  logger.log(`listening on ${await app.getUrl()}`);

  // D41: stop accepting, finish requests in flight, stop the outbox dispatcher, close the
  // database, exit 0 — or exit 1 if that takes longer than the deadline.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received, shutting down`);
    const deadline = setTimeout(() => {
      logger.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    // Keep-alive sockets that finish their last response after close() began would otherwise hold
    // the server open until the client lets go: close them as soon as they fall idle.
    const server = app.getHttpServer() as import('node:http').Server;
    const reaper = setInterval(() => server.closeIdleConnections(), 100);
    reaper.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
