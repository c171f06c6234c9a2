import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of this process: Node's defaults plus request durations of the public port. */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of requests on the public API port',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  /** X7: requests served without a rate limit because the limiter's store (Redis) failed. */
  readonly rateLimitStoreErrors = new Counter({
    name: 'rate_limit_store_errors_total',
    help: 'Requests served without rate limiting because the rate limit store (Redis) could not be used',
    registers: [this.registry],
  });
  private storeUp: Gauge | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * X7: 1 while the rate limit store (Redis) answers, 0 from a failure until it answers again.
   * Registered by the first call, which RateLimits makes only when the counters live in Redis:
   * counters in the process have no store that could be down, and a gauge exported at its default 0
   * would read "failed" on every setup without Redis (docs/operations.md, "Metrics").
   */
  rateLimitStoreUp(): Gauge {
    this.storeUp ??= new Gauge({
      name: 'rate_limit_store_up',
      help: 'Whether the last call to the rate limit store (Redis) succeeded (1) or failed (0); only exported where REDIS_URL is set',
      registers: [this.registry],
    });
    return this.storeUp;
  }

  /** Times every request of the public port by its route pattern (never the raw URL: no id cardinality). */
  instrument(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      this.requestDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }
}
