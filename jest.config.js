// `npm test`: every test that needs nothing but Node (docs/testing.md). Three projects: unit specs
// (src/ beside the code, the typed client's wrapper in clients/, and test/unit: use cases over
// in-memory adapters, specs that use test/support, checks of the repository itself), adapter
// (integration) tests and HTTP (e2e) tests. The suites that need a Redis server or a browser have
// configurations of their own: test/redis/jest.config.js, test/browser/jest.config.js.
// The database of integration and e2e tests is TEST_DATABASE_URL (set by `npm run test:mysql`),
// otherwise a fresh in-memory SQLite database per application. A test that holds on one engine only
// lives in a file named for it (`*.mysql.e2e-spec.ts`, `*.sqlite.int-spec.ts`), which runs only
// against that engine: no test is skipped at run time.
const shared = require('./test/jest.shared');

const engine = (process.env.TEST_DATABASE_URL ?? '').startsWith('mysql:') ? 'mysql' : 'sqlite';
const otherEngine = engine === 'mysql' ? 'sqlite' : 'mysql';
const otherEnginesFiles = [`\\.${otherEngine}\\.(int|e2e)-spec\\.ts$`];

const unit = {
  ...shared,
  displayName: 'unit',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/clients/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'],
};

module.exports = {
  // the unit project touches no database: `npm test` runs it, `npm run test:mysql` leaves it out
  projects: [
    ...(engine === 'sqlite' ? [unit] : []),
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
      testPathIgnorePatterns: otherEnginesFiles,
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: otherEnginesFiles,
    },
  ],
  testTimeout: 30000,
};
