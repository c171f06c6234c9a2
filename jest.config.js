// Three projects: unit specs (src/ beside the code, the typed client's wrapper in clients/, and
// test/unit: use cases over in-memory adapters, specs that use test/support, checks of the repository
// itself), adapter (integration) tests and HTTP (e2e) tests.
// The database of integration and e2e tests is TEST_DATABASE_URL (set by `npm run test:mysql`),
// otherwise a fresh in-memory SQLite database per application.
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json', diagnostics: false }],
};
const common = { moduleFileExtensions: ['ts', 'js', 'json'], testEnvironment: 'node', transform };

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/clients/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'],
    },
    { ...common, displayName: 'integration', rootDir: '.', testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', rootDir: '.', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
  testTimeout: 30000,
};
