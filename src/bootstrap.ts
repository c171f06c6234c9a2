import type { Server } from 'node:http';
import { Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, ConfigError } from './config/app-config';
import { installIdempotency } from './idempotency';
import { AppLogger } from './shared/logging.module';
import { configureHttp, createHttpAdapter } from './shared/http/configure-http';
import { applyConnectionLimits, beginDrain } from './shared/http/connection-limits';
import { ManagementServer } from './shared/management/management-server';
import { openApiDocument } from './shared/management/openapi';

/** Builds the server application (not yet listening). */
export async function createServerApp(module: Type<unknown>): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    module,
    createHttpAdapter(AppConfig.fromEnv(process.env).http),
    {
      // Nest's own console logger stays off: pino takes over once the app exists, and a start-up
      // failure is reported by main.ts in one line.
      logger: false,
      abortOnError: false,
      bodyParser: false, // the JSON body parser of configureHttp is the only one (D6, D38)
    },
  );
  app.useLogger(app.get(AppLogger));
  configureApi(app);
  applyConnectionLimits(app);
  return app;
}

/**
 * The public port, for the server and the test app: the shared HTTP edge (`configureHttp`) and
 * what modules add to it, the Idempotency-Key hooks on the write routes (X1-X5), which run after
 * authentication and body parsing. Here, at the composition root, so that `shared/` names no module.
 */
export function configureApi(app: NestFastifyApplication): void {
  configureHttp(app);
  installIdempotency(app);
}

/**
 * Listens on the public port (HOST) and, unless MANAGEMENT_PORT is 0, on the management port at
 * MANAGEMENT_HOST (X15: loopback by default, so health, metrics and docs are not public by accident).
 */
export async function listen(
  app: NestFastifyApplication,
): Promise<{ api: string; management: string | null }> {
  const config = app.get(AppConfig);
  await listening(() => app.listen({ port: config.port, host: config.host }), {
    HOST: config.host,
    PORT: config.port,
  });
  let management: string | null = null;
  if (config.managementPort !== 0) {
    const port = await listening(
      () =>
        app.get(ManagementServer).start(config.managementPort, config.managementHost, openApiDocument(app)),
      { MANAGEMENT_HOST: config.managementHost, MANAGEMENT_PORT: config.managementPort },
    );
    management = urlOf(config.managementHost, port);
  }
  const bound = (app.getHttpServer() as Server).address();
  const api = typeof bound === 'object' && bound ? urlOf(bound.address, bound.port) : String(bound);
  return { api, management };
}

/** Why a host cannot be listened on: not an address of this machine, or a name that does not resolve. */
const HOST_ERRORS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);
/** Why a port cannot be listened on: taken, or privileged. */
const PORT_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EPERM']);

/**
 * Runs a listen, and turns its failure into the configuration error naming the variable at fault
 * (docs/configuration.md): an unresolvable HOST is not "the database cannot be used", which an
 * ENOTFOUND at start would otherwise read as.
 */
async function listening<T>(
  listen: () => Promise<T>,
  variables: Record<string, string | number>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const [hostVariable, portVariable] = Object.keys(variables) as [string, string];
    const variable =
      typeof code === 'string' && HOST_ERRORS.has(code)
        ? hostVariable
        : typeof code === 'string' && PORT_ERRORS.has(code)
          ? portVariable
          : null;
    if (variable === null) throw error;
    throw new ConfigError([
      {
        variable,
        problem: `cannot be listened on (${code}: ${(error as Error).message})`,
        value: String(variables[variable]),
      },
    ]);
  }
}

/** The address as bound (`0.0.0.0` stays `0.0.0.0`: every interface), IPv6 in brackets. */
function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Keep-alive connections idle at SIGTERM get this long to carry a request their client is sending. */
const IDLE_GRACE_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * D41: stop accepting connections, answer every request already received, run the shutdown hooks
 * (the mail dispatcher stops after the message in hand, the database closes). Resolves 'closed', or
 * 'timeout' when that takes longer than `deadlineMs`.
 *
 * Whatever the clients do: every response from now on says `Connection: close`; a keep-alive
 * connection idle at the signal is closed after at most half a second (closing it at once would reset
 * a request its client is sending on it at that moment; within the grace that request is answered);
 * and shortly before the deadline (1 s, or a tenth of a shorter deadline) connections whose request
 * has still not arrived in full (a body being trickled) are answered 408 and closed, so that only a
 * request still being handled can make the drain miss the deadline.
 */
export async function drainAndClose(
  app: NestFastifyApplication,
  deadlineMs = 10_000,
): Promise<'closed' | 'timeout'> {
  const server = app.getHttpServer() as Server;
  const drain = beginDrain(server);
  const timers: NodeJS.Timeout[] = [];
  const deadline = new Promise<'timeout'>((resolve) => {
    timers.push(setTimeout(() => resolve('timeout'), deadlineMs));
  });
  timers.push(
    setTimeout(
      () => {
        const cut = drain.cutUnreceived();
        if (cut > 0) new Logger('Server').warn(`closed ${cut} connections still sending a request`);
      },
      deadlineMs - Math.min(1000, deadlineMs / 10),
    ),
  );
  const close = async (): Promise<'closed'> => {
    const graceUntil = Date.now() + Math.min(IDLE_GRACE_MS, deadlineMs / 10);
    while (drain.hasIdle() && Date.now() < graceUntil) await sleep(20);
    // Keep-alive sockets that finish their last response after close() began would otherwise hold
    // the server open until the client lets go: close them as soon as they fall idle.
    server.closeIdleConnections();
    timers.push(setInterval(() => server.closeIdleConnections(), 100));
    await app.close();
    return 'closed';
  };
  try {
    return await Promise.race([close(), deadline]);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    drain.end();
  }
}
