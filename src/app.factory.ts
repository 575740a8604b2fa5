import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { serveApiDescription } from './common/api-docs/api-description';
import { serveConsole } from './console/console-assets';
import { jsonBodyMiddleware } from './common/http/json-body.middleware';
import { securityHeadersMiddleware } from './common/http/security-headers.middleware';
import { buildValidationPipe } from './common/http/validation.pipe';

/** Builds the daemon's HTTP application; main.ts and the integration tests share it. */
export async function createApp(options: AppModuleOptions): Promise<NestExpressApplication> {
  // Nest's default parsers (JSON and urlencoded, any charset, inflated) are replaced by one strict JSON parser.
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), { bufferLogs: true, abortOnError: false, bodyParser: false });
  app.useLogger(app.get(Logger));
  // Nothing tells a caller which framework answers.
  app.disable('x-powered-by');
  app.useGlobalPipes(buildValidationPipe());
  app.use(securityHeadersMiddleware());
  app.use(jsonBodyMiddleware());
  // GET /openapi.json and GET /docs, public: they describe the routes and hold no data.
  serveApiDescription(app);
  // GET /console and its deep links: the operator console's static files (its API calls need a session).
  serveConsole(app);
  return app;
}
