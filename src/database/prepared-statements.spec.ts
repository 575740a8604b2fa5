import type { DataSource } from 'typeorm';
import { hotQuery } from './prepared-statements';

/** A data source whose version query fails while `down` is set, and whose pool records what it was asked. */
function fakeDataSource() {
  const asked: { name?: string; text: string }[] = [];
  const state = { down: true };
  const dataSource = {
    query: jest.fn(async () => {
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return [{ version: 'PostgreSQL 15.8 on x86_64-pc-linux-gnu' }];
    }),
    driver: { master: { query: jest.fn(async (config: { name?: string; text: string }) => (asked.push(config), { rows: [], rowCount: 0 })) } },
  };
  return { dataSource: dataSource as unknown as DataSource, asked, state };
}

describe('hotQuery', () => {
  it('prepares statements once the database answers, after a first statement met an outage', async () => {
    const { dataSource, asked, state } = fakeDataSource();
    await hotQuery(dataSource, 'test.first', 'SELECT 1', []);
    state.down = false;
    await hotQuery(dataSource, 'test.first', 'SELECT 1', []);

    expect(asked[0].name).toBeUndefined();
    expect(asked[1].name).toMatch(/^hot_[0-9a-f]{16}$/);
  });

  it('asks the server version once while it answers', async () => {
    const { dataSource, state } = fakeDataSource();
    state.down = false;
    for (let i = 0; i < 3; i++) await hotQuery(dataSource, 'test.again', 'SELECT 2', []);

    expect((dataSource.query as jest.Mock).mock.calls).toHaveLength(1);
  });
});
