/** What an item's work may answer instead of waiting for its last write: the write, still under way. */
export interface WorkTail {
  /** Must not reject: the work handles its own failure. */
  tail: Promise<void>;
}

/** What a pool needs from its queue: claim a batch, work one item, give back what it will not work. */
export interface PoolSource<T> {
  claim(limit: number): Promise<T[]>;
  /**
   * Works one item. Work whose last step is a write (no provider call after it) may answer that write as its tail:
   * the worker takes its next item at once, while the write is under way; the pool ends once every tail has.
   */
  work(item: T): Promise<void | WorkTail>;
  release(items: T[]): Promise<void>;
}

/**
 * The one worker pool of the engine: `concurrency` workers take items from a shared buffer. The next batch is
 * claimed ahead, while the buffer still holds half a pool's worth, so a worker that ends an item takes the next one
 * at once instead of waiting for a claim (and its batch's reads); never more is held than one batch beyond that.
 * A slow item never holds the others back. Ends when a claim finds nothing and the buffer is empty, or when
 * `stopping()` turns true; items claimed but not started are then handed back at once. With `idleRetryMs`, a claim
 * that found nothing while other items are still being worked is tried again after that long, so work that arrives
 * meanwhile is not held until the slowest item in flight ends (a receiver that never answers must not delay the
 * others' deliveries). Answers how many items were worked.
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
  // Tails still being written; never more than one per worker.
  const tails = new Set<Promise<void>>();
  const lowWater = Math.ceil(Math.max(1, options.concurrency) / 2);
  const refill = (): Promise<void> | undefined => {
    if (drained || options.stopping()) return claiming;
    claiming ??= source.claim(batchSize).then(
      (items) => {
        claiming = undefined;
        if (items.length === 0) drained = true;
        buffer.push(...items);
        // Still below half a pool (a partial batch): claim again now, not when a worker next takes an item. With
        // every worker busy, none would take one until its item ended, and then the pool would wait for the claim.
        claimAhead();
      },
      (error: unknown) => {
        claiming = undefined;
        throw error;
      },
    );
    return claiming;
  };
  // Claim ahead while the buffer is below half a pool (refill does nothing once drained). A failure shows to the
  // worker that next finds the buffer empty and claims itself.
  const claimAhead = () => {
    if (buffer.length < lowWater) void refill()?.catch(() => undefined);
  };
  const worker = async () => {
    while (!options.stopping()) {
      const item = buffer.shift();
      // The next batch is read while this one is still being worked.
      claimAhead();
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
      let result: void | WorkTail;
      try {
        result = await source.work(item);
      } finally {
        busy--;
      }
      if (result) {
        const tail = result.tail.catch(() => undefined);
        tails.add(tail);
        void tail.then(() => tails.delete(tail));
        while (tails.size > Math.max(1, options.concurrency)) await Promise.race(tails);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    await Promise.all(tails);
    await claiming?.catch(() => undefined);
    if (buffer.length > 0) await source.release(buffer.splice(0)).catch(() => undefined);
  }
  return worked;
}
