import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { redactText, redactValue } from './redact';

/** Structured JSON logs; every logged object and message goes through the redactor first. */
export function buildLoggerParams(level: string, destination?: DestinationStream): Params {
  return {
    pinoHttp: [
      {
        level,
        // Health probes and scrapes would drown the log.
        autoLogging: { ignore: (req: { url?: string }) => /^\/(health|metrics)/.test(req.url ?? '') },
        redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["idempotency-key"]'], censor: '[REDACTED]' },
        serializers: {
          req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url && redactText(req.url) }),
          res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
        },
        formatters: {
          log: (object: Record<string, unknown>) => redactValue(object) as Record<string, unknown>,
        },
        hooks: {
          logMethod(args: unknown[], method: (...a: unknown[]) => void) {
            method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)));
          },
        },
      },
      destination as DestinationStream,
    ].filter((x) => x !== undefined) as Params['pinoHttp'],
  } as Params;
}
