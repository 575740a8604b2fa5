import type { Params } from 'nestjs-pino';
import type { DestinationStream, LevelWithSilent } from 'pino';
import pinoPretty from 'pino-pretty';
import { redactText, redactValue } from './redact';

/** Nest's start-up chatter (one line per module and per route): shown only at debug level. */
const NEST_BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);
const INFO = 30;

/** True when log lines go to a terminal: then they are printed for people, otherwise as JSON lines for machines. */
export function logsArePretty(stream: { isTTY?: boolean } = process.stdout): boolean {
  return stream.isTTY === true;
}

/** A stream that prints pino's JSON lines as readable, coloured text (onto `destination`, default stdout). */
export function prettyStream(destination?: DestinationStream, colorize = destination === undefined): DestinationStream {
  return pinoPretty({
    colorize,
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: '{if context}[{context}] {end}{msg}{if req} {req.method} {req.url} {res.statusCode} {responseTime}ms{end}',
    ...(destination !== undefined ? { destination } : {}),
  });
}

function isNestBootNoise(args: unknown[]): boolean {
  const first = args[0] as { context?: unknown } | undefined;
  return typeof first === 'object' && first !== null && typeof first.context === 'string' && NEST_BOOT_CONTEXTS.has(first.context);
}

/**
 * Logs for the daemon; every logged object and message goes through the redactor first. JSON lines unless `pretty`
 * (by default: when stdout is a terminal and no destination is given).
 */
export function buildLoggerParams(level: string, destination?: DestinationStream, pretty = destination === undefined && logsArePretty()): Params {
  const target = pretty ? prettyStream(destination) : destination;
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
          logMethod(this: { isLevelEnabled(level: LevelWithSilent): boolean }, args: unknown[], method: (...a: unknown[]) => void, levelValue: number) {
            if (levelValue === INFO && isNestBootNoise(args) && !this.isLevelEnabled('debug')) return;
            method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)));
          },
        },
      },
      target as DestinationStream,
    ].filter((x) => x !== undefined) as Params['pinoHttp'],
  } as Params;
}
