import { Writable } from 'node:stream';
import pino, { DestinationStream, LoggerOptions } from 'pino';
import { createBootLogger } from './boot-logger';
import { buildLoggerParams, logsArePretty } from './pino-options';

function collector(): { stream: DestinationStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream: stream as unknown as DestinationStream, text: () => text };
}

/** The pino logger nestjs-pino would build from these parameters. */
function loggerFrom(level: string, destination: DestinationStream, pretty: boolean) {
  const [options, target] = buildLoggerParams(level, destination, pretty).pinoHttp as [LoggerOptions, DestinationStream];
  return pino(options, target);
}

describe('log output', () => {
  it('is pretty on a terminal and JSON lines otherwise', () => {
    expect(logsArePretty({ isTTY: true })).toBe(true);
    expect(logsArePretty({ isTTY: false })).toBe(false);
    expect(logsArePretty({})).toBe(false);
  });

  it('writes JSON lines for machines, redacted', () => {
    const out = collector();
    loggerFrom('info', out.stream, false).info({ context: 'Billing' }, 'declined card 4242424242424242');
    const line = JSON.parse(out.text().trim()) as { msg: string; context: string; level: number };
    expect(line).toMatchObject({ msg: 'declined card [REDACTED]', context: 'Billing', level: 30 });
  });

  it('writes readable lines for people, redacted the same way', () => {
    const out = collector();
    loggerFrom('info', out.stream, true).warn({ context: 'Billing' }, 'declined card 4242424242424242');
    const text = out.text();
    expect(text).not.toMatch(/^\{/);
    expect(text).toContain('WARN');
    expect(text).toContain('[Billing] declined card [REDACTED]');
    expect(text).not.toContain('4242424242424242');
  });

  it("keeps Nest's per-route and per-module start-up lines out of the info log, and shows them at debug", () => {
    const quiet = collector();
    const logger = loggerFrom('info', quiet.stream, false);
    logger.info({ context: 'RouterExplorer' }, 'Mapped {/api/v1/plans, POST} route');
    logger.info({ context: 'InstanceLoader' }, 'AppModule dependencies initialized');
    logger.info({ context: 'Billing' }, 'kept');
    expect(quiet.text().trim().split('\n')).toHaveLength(1);

    const verbose = collector();
    loggerFrom('debug', verbose.stream, false).info({ context: 'RouterExplorer' }, 'Mapped {/api/v1/plans, POST} route');
    expect(verbose.text()).toContain('Mapped');
  });

  it('gives the boot lines the same two looks', () => {
    const json = collector();
    createBootLogger(json.stream, false).info('starting with postgres://u:pw@db/x');
    expect(JSON.parse(json.text())).toMatchObject({ context: 'Boot', msg: 'starting with postgres://u:[REDACTED]@db/x' });
    const pretty = collector();
    createBootLogger(pretty.stream, true).info('starting');
    expect(pretty.text()).toMatch(/INFO.*\[Boot\] starting/);
  });
});
