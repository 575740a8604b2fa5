import { AppConfig } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** A rate limit no test reaches unless it means to. */
export const UNLIMITED_RATE = '1000000/s';

/**
 * Config for an app under test: the given variables over quiet, fast defaults. The provider timeout is one no call to
 * the in-process sandbox reaches on a busy machine; a test about timeouts sets its own, with a fault far longer.
 * Plans without their own dunning follow the fixed ladder (DUNNING_STRATEGY=fixed) that the older tests describe; a
 * test of smart dunning says so on its plan or in its env. The rate limits are out of reach (the route walks send
 * thousands of requests, and wrong tokens, from one address); a test of the limits sets its own.
 */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    PROVIDER_TIMEOUT_MS: '10000',
    DUNNING_STRATEGY: 'fixed',
    API_RATE_LIMIT: UNLIMITED_RATE,
    AUTH_FAILURE_LIMIT: UNLIMITED_RATE,
    RECOVERY_PAGE_RATE_LIMIT: UNLIMITED_RATE,
    ...env,
  });
}
