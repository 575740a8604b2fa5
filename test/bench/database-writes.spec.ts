import { Client } from 'pg';
import { DatabaseWrites } from '../../src/bench/database-writes';
import { testDatabaseUrl } from '../support/test-database';

/** The bench reports what PostgreSQL wrote during a pass; these counters must move with the writes, or the figure misleads. */
describe('The bench’s database write counters', () => {
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: testDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
  });

  it('counts the WAL of a write between two marks, and nothing where the server keeps no such statistics', async () => {
    const writes = new DatabaseWrites(db);
    const before = await writes.mark();
    await db.query('CREATE TABLE IF NOT EXISTS bench_writes_logged (n int, pad text)');
    await db.query(`INSERT INTO bench_writes_logged SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g`);
    const spent = await writes.since(before);
    await db.query('DROP TABLE bench_writes_logged');
    if (process.env.TEST_DATABASE_KIND === 'server') {
      expect(spent).toBeDefined();
      // 2,000 rows of ~230 bytes: at least their size in WAL.
      expect(spent?.walBytes).toBeGreaterThan(2000 * 200);
      expect(spent?.fullPageImages).toBeGreaterThanOrEqual(0);
    } else if (spent) {
      expect(spent.walBytes).toBeGreaterThanOrEqual(0);
    }
  });
});
