// What every jest project of the repository shares (jest.config.js, test/redis/jest.config.js,
// test/browser/jest.config.js; docs/testing.md).
const path = require('node:path');

module.exports = {
  rootDir: path.join(__dirname, '..'),
  moduleFileExtensions: ['ts', 'js', 'json'],
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json', diagnostics: false }],
  },
};
