import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { loadConfig } from './load-config';

/** Provides the one AppConfig to every module. Tests pass their own; the daemon reads the environment. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useFactory: () => config ?? loadConfig() }],
      exports: [AppConfig],
    };
  }
}
