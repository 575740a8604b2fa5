import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SANDBOX_DELAYS, SandboxConfig, SandboxDelays } from './sandbox-config';
import { SandboxModule } from './sandbox.module';

export interface SandboxOptions {
  /** 0 or absent: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The merchant API key the sandbox accepts as a bearer credential. */
  apiKey: string;
  /** When set, customers and invoices must name this shop. */
  shopId?: string;
  /** Optional JSON persistence: loaded at start, saved (throttled) on changes and on close. */
  stateFile?: string;
  delays?: Partial<SandboxDelays>;
  /** No Nest log output at all. */
  quiet?: boolean;
}

export interface SandboxHandle {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:43123. */
  url: string;
  close(): Promise<void>;
}

/** Keep-alive sockets outlive a client's idle period, so clients do not race the server closing them. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Starts the provider sandbox: a faithful simulator of the provider API, listening on its own port. */
export async function startSandbox(options: SandboxOptions): Promise<SandboxHandle> {
  if (!options.apiKey) throw new Error('startSandbox needs an apiKey');
  const config = new SandboxConfig(options.apiKey, options.shopId, { ...DEFAULT_SANDBOX_DELAYS, ...options.delays }, options.stateFile);
  const app = await NestFactory.create<NestExpressApplication>(SandboxModule.forRoot(config), {
    logger: options.quiet ? false : ['error', 'warn'],
    // Bodies are read as text and parsed by the sandbox, so malformed JSON gets the provider's error shape.
    bodyParser: false,
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(['/sandbox/hosted-form', '/sandbox/acs'], express.urlencoded({ extended: false, limit: '16kb' }));
  app.use(express.text({ type: ['application/json', 'application/*+json'], limit: '1mb' }));

  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen(options.port ?? 0, host);
  } catch (e) {
    // A taken port must not leave a half-started application (and its timers) behind.
    await app.close();
    throw e;
  }
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  config.baseUrl = `http://${urlHost}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: config.baseUrl,
    close(): Promise<void> {
      closing ??= (async () => {
        // Stop accepting, cut keep-alive and in-flight sockets, then let Nest run its shutdown hooks
        // (timers cancelled, state saved).
        server.close();
        server.closeAllConnections();
        await app.close();
      })();
      return closing;
    },
  };
}
