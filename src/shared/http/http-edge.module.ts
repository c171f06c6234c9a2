import { Module } from '@nestjs/common';
import { RateLimits } from './rate-limits';

/** What the public port's hooks need besides the business modules: the rate limits (X6-X8). */
@Module({
  providers: [RateLimits],
  exports: [RateLimits],
})
export class HttpEdgeModule {}
