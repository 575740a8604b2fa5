import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { createBootLogger } from '../common/logging/boot-logger';
import { buildDataSourceOptions } from './data-source-options';
import { untilDatabaseAnswers, WaitLog } from './wait-for-database';

export interface DatabaseModuleOptions {
  url: string;
  poolSize?: number;
  /** Where a wait for the database is told; the boot logger when unset. */
  wait?: WaitLog;
}

/** TypeORM on the given server. Migrations are applied before the app starts (runMigrations); synchronize stays off. */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...buildDataSourceOptions(options.url, { poolSize: options.poolSize }),
            // Each domain module registers its own entities (TypeOrmModule.forFeature); none is listed centrally.
            autoLoadEntities: true,
            // dataSourceFactory below does the waiting; Nest's own retry would repeat a refusal the wait let through.
            toRetry: () => false,
          }),
          // The migrations have just reached this server, so a failure to connect now is PostgreSQL shutting down or
          // starting up (a restart, a failover): the connection waits for it as the migrations did, said in the
          // boot's log, instead of two attempts a second apart and an exit. Any other error fails at once.
          dataSourceFactory: (dataSourceOptions) =>
            untilDatabaseAnswers(() => new DataSource(dataSourceOptions as DataSourceOptions).initialize(), options.wait ?? bootWaitLog()),
        }),
      ],
    };
  }
}

function bootWaitLog(): WaitLog {
  const log = createBootLogger();
  return { warn: (fields, message) => log.warn(fields, message), info: (message) => log.info(message) };
}
