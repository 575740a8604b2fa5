/**
 * The time limit of the heaviest tests (a thousand payouts, several daemons killed and restarted, dozens of
 * customers bound first): on a busy two-core machine they take several minutes, more than jest's usual limit
 * (jest.config.js). Like that one, it only catches a hang.
 */
export const HEAVY_TEST_TIMEOUT_MS = 600_000;
