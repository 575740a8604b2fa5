import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { buildDataSourceOptions } from './data-source-options';

export interface DatabaseModuleOptions {
  url: string;
  poolSize?: number;
}

/** TypeORM on the given server. Migrations are applied before the app starts (runMigrations); synchronize stays off. */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions(options.url, { poolSize: options.poolSize }),
          // Each domain module registers its own entities (TypeOrmModule.forFeature); none is listed centrally.
          autoLoadEntities: true,
          // Fail fast at boot instead of retrying for minutes against a wrong URL.
          retryAttempts: 2,
          retryDelay: 1000,
        }),
      ],
    };
  }
}
