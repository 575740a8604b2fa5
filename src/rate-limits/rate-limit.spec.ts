import { loadConfig } from '../config/load-config';
import { isRateLimit, parseRateLimit } from './rate-limit';

describe('rate limits', () => {
  it('reads a count per second, minute or hour, with a burst of twice it', () => {
    expect(parseRateLimit('100/s')).toEqual({ perSecond: 100, burst: 200, text: '100/s' });
    expect(parseRateLimit(' 600 / m ')).toEqual({ perSecond: 10, burst: 1200, text: '600/m' });
    expect(parseRateLimit('36/h')).toMatchObject({ perSecond: 0.01, burst: 72 });
    for (const bad of ['0/s', '100', '100/d', '-1/s', '1.5/s', 'fast', '']) expect({ bad, ok: isRateLimit(bad) }).toEqual({ bad, ok: false });
  });

  it('refuses to start on a limit it cannot read, naming the variable', () => {
    expect(loadConfig({}).apiRateLimit).toBe('100/s');
    expect(loadConfig({}).authFailureLimit).toBe('10/m');
    expect(() => loadConfig({ API_RATE_LIMIT: '100 per second' })).toThrow(/API_RATE_LIMIT must be a positive count per second, minute or hour/);
    expect(() => loadConfig({ AUTH_FAILURE_LIMIT: '0/m' })).toThrow(/AUTH_FAILURE_LIMIT must be/);
  });
});
