import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';

/** Arbitrary constant that names the migration lock among this database's advisory locks. */
const MIGRATION_LOCK_KEY = 7_235_100;

/**
 * Applies pending migrations once, even when several replicas start together: the first takes a
 * session advisory lock on its own connection, the others wait and then find nothing to do.
 */
export async function runMigrations(url: string): Promise<string[]> {
  const dataSource = new DataSource(buildDataSourceOptions(url, { poolSize: 2, applicationName: 'billing-migrations' }));
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      // A session's lock ends with its connection. When PostgreSQL dropped it (a shutdown), the unlock fails on a
      // released runner, and that error must not hide the shutdown's own, on which the boot waits instead of exiting.
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await runner.release().catch(() => undefined);
    await dataSource.destroy().catch(() => undefined);
  }
}
