import type { Server } from 'node:http';
import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from './config/app-config';
import { AppLogger } from './shared/logging.module';
import { configureHttp, createHttpAdapter } from './shared/http/configure-http';
import { applyConnectionLimits } from './shared/http/connection-limits';
import { ManagementServer } from './shared/management/management-server';
import { openApiDocument } from './shared/management/openapi';

/** Builds the server application (not yet listening). */
export async function createServerApp(module: Type<unknown>): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module, createHttpAdapter(), {
    // Nest's own console logger stays off: pino takes over once the app exists, and a start-up
    // failure is reported by main.ts in one line.
    logger: false,
    abortOnError: false,
    bodyParser: false, // the JSON body parser of configureHttp is the only one (D6, D38)
  });
  app.useLogger(app.get(AppLogger));
  configureHttp(app);
  applyConnectionLimits(app);
  return app;
}

/** Listens on the public port and, unless MANAGEMENT_PORT is 0, on the management port. */
export async function listen(app: NestFastifyApplication): Promise<void> {
  const config = app.get(AppConfig);
  await app.listen({ port: config.port, host: config.host });
  if (config.managementPort !== 0) {
    await app.get(ManagementServer).start(config.managementPort, config.host, openApiDocument(app));
  }
}

/**
 * D41: stop accepting connections, answer every request already received, run the shutdown hooks
 * (the mail dispatcher stops after the message in hand, the database closes). Resolves 'closed', or
 * 'timeout' when that takes longer than `deadlineMs`.
 */
export async function drainAndClose(
  app: NestFastifyApplication,
  deadlineMs = 10_000,
): Promise<'closed' | 'timeout'> {
  // Keep-alive sockets that finish their last response after close() began would otherwise hold the
  // server open until the client lets go: close them as soon as they fall idle.
  const server = app.getHttpServer() as Server;
  const reaper = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deadlineMs);
  });
  try {
    return await Promise.race([app.close().then(() => 'closed' as const), deadline]);
  } finally {
    clearInterval(reaper);
    clearTimeout(timer);
  }
}
