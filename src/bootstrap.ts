import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as PinoLogger } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { configureHttp, createHttpAdapter } from './shared/http/configure-http';
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
  app.useLogger(app.get(PinoLogger));
  configureHttp(app);
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
