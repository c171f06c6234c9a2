// `npm run test:redis`: X7's limits shared through Redis. Needs a Redis at TEST_REDIS_URL (default
// redis://127.0.0.1:6379) and the redis-server binary; the globalSetup checks both first.
module.exports = {
  ...require('../jest.shared'),
  displayName: 'redis',
  testMatch: ['<rootDir>/test/redis/**/*.redis-spec.ts'],
  globalSetup: '<rootDir>/test/redis/requirements.redis-setup.ts',
  testTimeout: 30000,
};
