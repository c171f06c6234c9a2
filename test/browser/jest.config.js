// `npm run test:browser`: the /docs page in headless Chromium (X14). Needs Debian's chromium at
// /usr/bin/chromium (or CHROMIUM_PATH); the globalSetup checks it first. No browser is downloaded.
module.exports = {
  ...require('../jest.shared'),
  displayName: 'browser',
  testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
  globalSetup: '<rootDir>/test/browser/requirements.browser-setup.ts',
  testTimeout: 30000,
};
