import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import Fastify, { FastifyInstance } from 'fastify';
import { registerApiDocsPage } from './api-docs-page';
import { Metrics } from './metrics';

/**
 * D10: operations endpoints live on their own port, so the public port can refuse everything
 * outside /api/v1/vendors/. `/healthz`: the process is up. `/readyz`: the database answers.
 * `/metrics`: Prometheus text. `/openapi.json`: the API description, and `/docs` its reference page (X14).
 */
@Injectable()
export class ManagementServer implements OnApplicationShutdown {
  private readonly logger = new Logger(ManagementServer.name);
  private server?: FastifyInstance;

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly metrics: Metrics,
  ) {}

  async start(port: number, host: string, openApiDocument: object): Promise<number> {
    const server = Fastify({ logger: false });
    server.get('/healthz', async () => ({ status: 'ok' }));
    server.get('/readyz', async (_request, reply) => {
      try {
        return await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 })]);
      } catch (error) {
        // a failed check is a ServiceUnavailableException carrying the health report; anything else is logged
        const report = (error as { response?: unknown }).response;
        if (!report) this.logger.error(error);
        return reply.status(503).send(report ?? { status: 'error' });
      }
    });
    server.get('/metrics', async (_request, reply) => {
      reply.type(this.metrics.registry.contentType);
      return this.metrics.registry.metrics();
    });
    server.get('/openapi.json', async () => openApiDocument);
    const info = (openApiDocument as { info?: { title?: unknown } }).info;
    registerApiDocsPage(server, typeof info?.title === 'string' ? info.title : 'API reference');
    await server.listen({ port, host });
    this.server = server;
    const address = server.server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    this.logger.log(`management endpoints on ${host}:${bound}`);
    return bound;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }
}
