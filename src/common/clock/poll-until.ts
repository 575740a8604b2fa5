import { setTimeout as pause } from 'node:timers/promises';
import { Clock } from './clock';

/**
 * Reads `done` after growing pauses (from `firstMs`, doubling up to `capMs`) until it answers true or `forMs` have
 * passed on `clock`: how a request waits for work that another loop finishes, quick at first and light after.
 */
export async function pollUntil(done: () => Promise<boolean>, options: { clock: Clock; forMs: number; firstMs: number; capMs: number }): Promise<void> {
  const deadline = options.clock.now().getTime() + options.forMs;
  for (let delay = options.firstMs; options.clock.now().getTime() < deadline; delay = Math.min(delay * 2, options.capMs)) {
    await pause(delay);
    if (await done()) return;
  }
}
