/** Three tiers by suffix: *.spec.ts (unit), *.int-spec.ts (real PostgreSQL, API through inject), test/e2e (real processes, real HTTP). */
const transform = { '^.+\\.ts$': ['@swc/jest'] };
// Compiled code imports lazily loaded modules with their .js name; in tests the .ts source answers.
const moduleNameMapper = { '^(\\.{1,2}/.*)\\.js$': '$1' };
module.exports = {
  testTimeout: 60000,
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  projects: [
    {
      displayName: 'unit',
      transform,
      moduleNameMapper,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'],
    },
    {
      displayName: 'int',
      transform,
      moduleNameMapper,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.int-spec.ts', '<rootDir>/test/int/**/*.int-spec.ts'],
    },
    {
      displayName: 'e2e',
      transform,
      moduleNameMapper,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
    },
  ],
};
