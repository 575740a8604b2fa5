import type { EmbeddedPostgresHandle } from '../../src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const embedded = (globalThis as { __EMBEDDED_PG__?: EmbeddedPostgresHandle }).__EMBEDDED_PG__;
  await embedded?.stop();
}
