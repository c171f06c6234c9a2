import { MissingRequirement, reachable, runs } from '../support/requirements';
import { testRedisUrl } from '../support/redis';

/** Jest globalSetup of `npm run test:redis`: a Redis to share limits through, and redis-server to start one's own. */
export default async function requireRedis(): Promise<void> {
  const url = testRedisUrl();
  if (!(await reachable(url, 6379))) {
    throw new MissingRequirement(
      `npm run test:redis needs a Redis server at ${url} (TEST_REDIS_URL), and nothing answers there`,
      'Start one (apt-get install -y redis-server; redis-server --daemonize yes) or set TEST_REDIS_URL.',
    );
  }
  if (!runs('redis-server')) {
    throw new MissingRequirement(
      'npm run test:redis needs the redis-server binary on PATH (a test stops and restarts a Redis of its own)',
      'Install it: apt-get install -y redis-server.',
    );
  }
}
