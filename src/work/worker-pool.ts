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
 * claimed but not started are then handed back at once. Answers how many items were worked.
 */
export async function drainQueue<T>(source: PoolSource<T>, options: { concurrency: number; batchSize: number; stopping: () => boolean }): Promise<number> {
  const buffer: T[] = [];
  const batchSize = Math.max(1, Math.min(options.batchSize, options.concurrency));
  let drained = false;
  let worked = 0;
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
        if (drained) return;
        await refill();
        continue;
      }
      worked++;
      await source.work(item);
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
