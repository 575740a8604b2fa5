import { Client } from 'pg';

/** The database globalSetup prepared (migrated) for this run. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DB_URL;
  if (!url) throw new Error('TEST_DB_URL is not set: run the tests through jest (npm test), whose globalSetup prepares the database');
  return url;
}

/** Empties every table but the migrations log, so a suite starts from a clean, migrated schema. */
export async function resetDatabase(url = testDatabaseUrl()): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
    );
    if (rows.length > 0) {
      await client.query(`TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
    }
  } finally {
    await client.end();
  }
}
