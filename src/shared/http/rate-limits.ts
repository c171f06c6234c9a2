import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import type { Gauge } from 'prom-client';
import {
  RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppConfig } from '../../config/app-config';
import { Metrics } from '../management/metrics';

/** Both limits count in fixed windows of one minute (X6, X8). */
const WINDOW_SECONDS = 60;
/** A Redis that does not answer within this long is treated as down for that request (fail open). */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How long the start waits for a first connection to Redis (it starts without one after that). */
const REDIS_START_WAIT_MS = 2000;

/** What a limiter said about one request: its counter after it, and whether it is over the limit. */
export interface LimitState {
  readonly limit: number;
  /** rate-limiter-flexible's answer: consumedPoints, remainingPoints, msBeforeNext */
  readonly res: RateLimiterRes;
}

/** Whether the request that produced `state` is over its limit (the limiter counted it anyway). */
export function isOverLimit(state: LimitState): boolean {
  return state.res.consumedPoints > state.limit;
}

/** Seconds until the window frees capacity (RateLimit-Reset, Retry-After): at least 1. */
export function secondsToReset(state: LimitState): number {
  return Math.max(1, Math.ceil(state.res.msBeforeNext / 1000));
}

/**
 * The counters of X6 (requests per vendor) and X8 (failed authentications per client address), in
 * fixed one-minute windows, kept by rate-limiter-flexible: in the process, or in Redis when
 * REDIS_URL is set so that every instance shares one limit (X7).
 *
 * When Redis cannot be reached, or does not answer within half a second, the request is served
 * without a limit (fail open): one warning when that starts and one line when Redis answers again,
 * and every request served so is counted in `rate_limit_store_errors_total` (management port); the
 * gauge `rate_limit_store_up`, exported only when the counters live in Redis, says whether the last
 * call reached the store. ioredis reconnects by
 * itself, and the limits apply again from the first answer.
 */
@Injectable()
export class RateLimits implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly vendorLimiter: RateLimiterAbstract | undefined;
  private readonly authLimiter: RateLimiterAbstract | undefined;
  private readonly redis: Redis | undefined;
  readonly vendorLimit: number;
  readonly authFailureLimit: number;
  private storeDown = false;
  private failuresWhileDown = 0;
  /** `rate_limit_store_up`: only where the counters live in Redis (Metrics.rateLimitStoreUp) */
  private readonly storeUp: Gauge | undefined;

  constructor(
    config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    const { rateLimitPerMinute, authFailuresPerMinute, redisUrl, redisKeyPrefix } = config.edge;
    this.vendorLimit = rateLimitPerMinute;
    this.authFailureLimit = authFailuresPerMinute;
    if (redisUrl && (rateLimitPerMinute > 0 || authFailuresPerMinute > 0)) {
      this.redis = new Redis(redisUrl, {
        // fail at once while disconnected instead of queueing requests behind a reconnect
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        connectTimeout: 2000,
        // ioredis waits this long for a socket that is already closed when it disconnects
        disconnectTimeout: 200,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      });
      // Connection errors are reported per request (failOpen); ioredis would print them otherwise.
      this.redis.on('error', () => undefined);
      this.storeUp = this.metrics.rateLimitStoreUp();
      this.storeUp.set(1);
    }
    const limiter = (points: number, name: string): RateLimiterAbstract | undefined => {
      if (points === 0) return undefined;
      const options = { points, duration: WINDOW_SECONDS, keyPrefix: `${redisKeyPrefix}${name}` };
      return this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, rejectIfRedisNotReady: true })
        : new RateLimiterMemory(options);
    };
    this.vendorLimiter = limiter(rateLimitPerMinute, 'vendor');
    this.authLimiter = limiter(authFailuresPerMinute, 'auth');
  }

  get limitsVendors(): boolean {
    return this.vendorLimiter !== undefined;
  }

  get limitsAuthFailures(): boolean {
    return this.authLimiter !== undefined;
  }

  /** X6: counts one request of the vendor; undefined when not limited (disabled, or the store is down). */
  vendorRequest(vendorId: number): Promise<LimitState | undefined> {
    return this.take(this.vendorLimiter, vendorId, this.vendorLimit);
  }

  /** X8: counts one failed authentication from the address; undefined when not limited. */
  authFailure(address: string): Promise<LimitState | undefined> {
    return this.take(this.authLimiter, address, this.authFailureLimit);
  }

  private async take(
    limiter: RateLimiterAbstract | undefined,
    key: string | number,
    limit: number,
  ): Promise<LimitState | undefined> {
    if (!limiter) return undefined;
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key);
    } catch (rejection) {
      // over the limit: rate-limiter-flexible rejects with the counter; anything else is the store
      if (!(rejection instanceof RateLimiterRes)) return this.failOpen(rejection);
      res = rejection;
    }
    if (this.storeDown) this.storeBack();
    return { limit, res };
  }

  private failOpen(error: unknown): undefined {
    this.metrics.rateLimitStoreErrors.inc();
    this.failuresWhileDown += 1;
    if (!this.storeDown) {
      this.storeDown = true;
      this.storeUp?.set(0);
      this.logger.warn(
        { err: error },
        'rate limit store (Redis) unavailable: requests are served without rate limits until it answers',
      );
    }
    return undefined;
  }

  private storeBack(): void {
    this.storeDown = false;
    this.storeUp?.set(1);
    this.logger.log(
      { servedWithoutLimit: this.failuresWhileDown },
      'rate limit store (Redis) available again: rate limits apply',
    );
    this.failuresWhileDown = 0;
  }

  /**
   * Waits for the first connection to Redis, so that the limits apply from the first request, but
   * not for a Redis that refuses or does not answer: the service starts and serves regardless.
   */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, REDIS_START_WAIT_MS);
      redis.once('ready', done);
      redis.once('error', done);
      function done() {
        clearTimeout(timer);
        redis!.off('ready', done);
        redis!.off('error', done);
        resolve();
      }
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.redis) return;
    this.redis.disconnect();
  }
}
