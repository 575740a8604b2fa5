import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface DataSourceTuning {
  /** Pool size of this process. */
  poolSize?: number;
  /** Apply pending migrations when the DataSource initializes. */
  migrationsRun?: boolean;
  applicationName?: string;
  /** Entities, for a DataSource built outside Nest (the migration CLI); the app's modules register their own. */
  entities?: DataSourceOptions['entities'];
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
    extra: {
      max: tuning.poolSize ?? 10,
      application_name: tuning.applicationName ?? 'billing-daemon',
      connectionTimeoutMillis: 10000,
    },
  };
}
