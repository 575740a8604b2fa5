import pino, { DestinationStream, Logger } from 'pino';
import { logsArePretty, prettyStream } from './pino-options';
import { redactText, redactValue } from './redact';

/**
 * The logger main.ts uses before the application's own exists (and after it has closed): the same look as the
 * application's lines (readable on a terminal, JSON lines otherwise) and the same redaction.
 */
export function createBootLogger(destination?: DestinationStream, pretty = destination === undefined && logsArePretty()): Logger {
  return pino(
    {
      base: { context: 'Boot' },
      formatters: { log: (object: Record<string, unknown>) => redactValue(object) as Record<string, unknown> },
      hooks: {
        logMethod(args: unknown[], method: (...a: unknown[]) => void) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)));
        },
      },
    },
    pretty ? prettyStream(destination) : (destination ?? pino.destination({ dest: 1, sync: true })),
  );
}
