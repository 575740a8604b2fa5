import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';
import { StatementNotingLogger } from './statement-noting.logger';

export interface DataSourceTuning {
  /** Pool size of this process. */
  poolSize?: number;
  /** Apply pending migrations when the DataSource initializes. */
  migrationsRun?: boolean;
  applicationName?: string;
  /** Entities, for a DataSource built outside Nest (the migration CLI); the app's modules register their own. */
  entities?: DataSourceOptions['entities'];
}

/** Connections of a process's pool when nobody sets one: see poolSizeFor. */
export const MIN_POOL_SIZE = 10;
/** At most this many, so three replicas (75, plus 2 each briefly for migrations) stay under PostgreSQL's default max_connections of 100. */
export const MAX_POOL_SIZE = 25;

/**
 * The pool a process needs for `providerMaxConcurrency` workers: each worker holds a connection for one write
 * between two provider calls, so a quarter of the provider slots, at least MIN_POOL_SIZE (the API, the other
 * loops) and at most MAX_POOL_SIZE.
 */
export function poolSizeFor(providerMaxConcurrency: number): number {
  return Math.min(MAX_POOL_SIZE, Math.max(MIN_POOL_SIZE, Math.ceil(providerMaxConcurrency / 4)));
}

/** The one definition of the database connection, shared by the daemon, the tests and the migration CLI. */
export function buildDataSourceOptions(url: string, tuning: DataSourceTuning = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: tuning.entities ?? [],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsRun: tuning.migrationsRun ?? false,
    // Migrations are the only way the schema changes.
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    // gen_random_uuid() is core in PostgreSQL 13+ and works on PGlite, where extensions do not.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: ['error'],
    // Errors logged as before; every statement also noted, so a lost answer tells what may have committed.
    logger: new StatementNotingLogger(['error']),
    extra: {
      max: tuning.poolSize ?? MIN_POOL_SIZE,
      application_name: tuning.applicationName ?? 'billing-daemon',
      connectionTimeoutMillis: 10000,
    },
  };
}
