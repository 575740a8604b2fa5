import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { buildValidationPipe } from './common/http/validation.pipe';

/** Builds the daemon's HTTP application; main.ts and the integration tests share it. */
export async function createApp(options: AppModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), { bufferLogs: true, abortOnError: false });
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(buildValidationPipe());
  // Express defaults to 100kb; a 10,000-item payout batch needs more.
  app.useBodyParser('json', { limit: '5mb' });
  return app;
}
