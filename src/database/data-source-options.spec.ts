import { buildDataSourceOptions, MAX_POOL_SIZE, poolSizeFor } from './data-source-options';

describe('poolSizeFor', () => {
  it('keeps 10 connections for the default 16 provider slots and below', () => {
    expect(poolSizeFor(1)).toBe(10);
    expect(poolSizeFor(16)).toBe(10);
    expect(poolSizeFor(40)).toBe(10);
  });

  it('grows with a quarter of the provider slots', () => {
    expect(poolSizeFor(64)).toBe(16);
    expect(poolSizeFor(81)).toBe(21);
  });

  it('stops at 25, so three replicas stay under PostgreSQL default max_connections of 100', () => {
    expect(poolSizeFor(128)).toBe(25);
    expect(poolSizeFor(1024)).toBe(25);
    expect(3 * (MAX_POOL_SIZE + 2)).toBeLessThan(100 - 3);
  });

  it('is what the connection pool gets', () => {
    const options = buildDataSourceOptions('postgres://x@127.0.0.1/db', { poolSize: poolSizeFor(128) });
    expect((options.extra as { max: number }).max).toBe(25);
  });
});
