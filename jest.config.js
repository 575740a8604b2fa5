/** Jest runs unit specs (beside the code and in test/unit) and integration suites (test/) in one pass.
 *  Integration suites share one database that globalSetup prepares (a real server from
 *  TEST_DATABASE_URL, or embedded PGlite), so the suite runs in band.
 *  A test's time limit only catches a hang, so it is set for a busy two-core machine (scripts/test-under-load.sh),
 *  where the slowest tests take minutes; only the heaviest ones set their own, HEAVY_TEST_TIMEOUT_MS in
 *  test/support/time-limits.ts. */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 300_000,
  slowTestThreshold: 30,
};
