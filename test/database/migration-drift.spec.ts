import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { testDatabaseUrl } from '../support/test-database';

describe('schema migrations', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource(buildDataSourceOptions(testDatabaseUrl(), { poolSize: 2 }));
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  it('are all applied by the migration runner', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
  });

  it('describe exactly the entities: no drift (generate a migration when this fails)', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    const statements = pending.upQueries.map((q) => q.query);
    expect(statements).toEqual([]);
  });
});
