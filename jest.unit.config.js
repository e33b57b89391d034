/** Unit tier only (no database): `npm run test:unit`. */
module.exports = {
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testEnvironment: 'node',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'],
};
