/** What a pool needs from its queue: claim a batch, work one item, give back what it will not work. */
export interface PoolSource<T> {
  claim(limit: number): Promise<T[]>;
  work(item: T): Promise<void>;
  release(items: T[]): Promise<void>;
}

/**
 * The one worker pool of the engine: `concurrency` workers take items from a shared buffer that is refilled one
 * batch at a time only when it runs dry (back-pressure: never more claimed than about to be worked), so a slow
 * item never holds the others back. Ends when a claim finds nothing, or when `stopping()` turns true; items
 * claimed but not started are then handed back at once. With `idleRetryMs`, a claim that found nothing while other
 * items are still being worked is tried again after that long, so work that arrives meanwhile is not held until
 * the slowest item in flight ends (a receiver that never answers must not delay the others' deliveries).
 * Answers how many items were worked.
 */
export async function drainQueue<T>(
  source: PoolSource<T>,
  options: { concurrency: number; batchSize: number; stopping: () => boolean; idleRetryMs?: number },
): Promise<number> {
  const buffer: T[] = [];
  const batchSize = Math.max(1, Math.min(options.batchSize, options.concurrency));
  let drained = false;
  let worked = 0;
  let busy = 0;
  let claiming: Promise<void> | undefined;
  const refill = () => {
    claiming ??= source
      .claim(batchSize)
      .then((items) => {
        if (items.length === 0) drained = true;
        buffer.push(...items);
      })
      .finally(() => {
        claiming = undefined;
      });
    return claiming;
  };
  const worker = async () => {
    while (!options.stopping()) {
      const item = buffer.shift();
      if (item === undefined) {
        if (drained) {
          if (busy === 0 || options.idleRetryMs === undefined) return;
          await new Promise((resolve) => setTimeout(resolve, options.idleRetryMs));
          drained = false;
          continue;
        }
        await refill();
        continue;
      }
      worked++;
      busy++;
      try {
        await source.work(item);
      } finally {
        busy--;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    await claiming?.catch(() => undefined);
    if (buffer.length > 0) await source.release(buffer.splice(0)).catch(() => undefined);
  }
  return worked;
}
