import type { Config } from '@jest/types';
import type { EmbeddedPostgresHandle } from '../../src/database/embedded-postgres';
import { workerDatabases } from './worker-databases';

export default async function globalTeardown(globalConfig: Config.GlobalConfig): Promise<void> {
  const embedded = (globalThis as { __EMBEDDED_PG__?: EmbeddedPostgresHandle }).__EMBEDDED_PG__;
  await embedded?.stop();
  const url = process.env.TEST_DATABASE_URL;
  if (url && process.env.TEST_DATABASE_KIND === 'server') await workerDatabases(url, Math.max(1, globalConfig.maxWorkers)).drop();
}
