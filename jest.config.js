/** Jest runs unit specs (beside the code and in test/unit) and integration suites (test/) in one pass.
 *  On a real server (TEST_DATABASE_URL) each worker has a database of its own, copied from a migrated template by
 *  globalSetup, so the suites run in parallel (TEST_WORKERS, default one more than the cores, at most 4); the embedded
 *  PGlite has one database, so one worker. One more worker than cores because a fifth to a quarter of the machine sat
 *  idle with one per core (files wait on child processes, the sandbox and the database): on two cores one pair of
 *  whole runs took 783 s with 2 workers and 687 s with 3, another 850 s and 868 s. At most 4 keeps the run's
 *  connections well under PostgreSQL's default 100 (3 workers peaked at 40). A worker that grew past
 *  workerIdleMemoryLimit is replaced between files, so no process holds what every suite before it left behind. The longest files start first (test/support/longest-first.sequencer.js), so the
 *  workers end together instead of one starting a long file while the others are done.
 *  A test's time limit only catches a hang, so it is set for a busy two-core machine (scripts/test-under-load.sh),
 *  where the slowest tests take minutes; only the heaviest ones set their own, HEAVY_TEST_TIMEOUT_MS in
 *  test/support/time-limits.ts. */
const { availableParallelism } = require('node:os');

const onServer = Boolean(process.env.TEST_DATABASE_URL);
const defaultWorkers = Math.min(4, availableParallelism() + 1);

module.exports = {
  maxWorkers: onServer ? Number(process.env.TEST_WORKERS || defaultWorkers) : 1,
  workerIdleMemoryLimit: '800MB',
  setupFiles: ['<rootDir>/test/support/worker-setup.ts'],
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testSequencer: '<rootDir>/test/support/longest-first.sequencer.js',
  testTimeout: 300_000,
  slowTestThreshold: 30,
};
