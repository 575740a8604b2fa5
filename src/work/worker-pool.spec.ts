import { drainQueue, PoolSource } from './worker-pool';

/** A queue in memory: `due` items are claimable; `work` of an item waits for its gate when it has one. */
function memoryQueue() {
  const due: string[] = [];
  const worked: string[] = [];
  const gates = new Map<string, Promise<void>>();
  const source: PoolSource<string> = {
    claim: async (limit) => due.splice(0, limit),
    work: async (item) => {
      await gates.get(item);
      worked.push(item);
    },
    release: async () => undefined,
  };
  return { due, worked, gates, source };
}

describe('drainQueue', () => {
  it('works what arrives while a slow item is in flight, without waiting for that item (idleRetryMs)', async () => {
    const queue = memoryQueue();
    let openSlow = () => undefined as void;
    queue.gates.set('slow', new Promise<void>((resolve) => (openSlow = resolve)));
    queue.due.push('slow');
    const drained = drainQueue(queue.source, { concurrency: 4, batchSize: 4, stopping: () => false, idleRetryMs: 5 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    queue.due.push('late');
    const deadline = Date.now() + 5_000;
    while (!queue.worked.includes('late') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(queue.worked).toEqual(['late']);
    openSlow();
    expect(await drained).toBe(2);
    expect(queue.worked).toEqual(['late', 'slow']);
  });

  it('without idleRetryMs, ends its idle workers once a claim finds nothing', async () => {
    const queue = memoryQueue();
    let openSlow = () => undefined as void;
    queue.gates.set('slow', new Promise<void>((resolve) => (openSlow = resolve)));
    queue.due.push('slow');
    const drained = drainQueue(queue.source, { concurrency: 4, batchSize: 4, stopping: () => false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    queue.due.push('late');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(queue.worked).toEqual([]);
    openSlow();
    expect(await drained).toBe(1);
  });
});

describe('drainQueue, claim-ahead and tails', () => {
  it('claims the next batch while the current one is still being worked, so no worker waits for a claim', async () => {
    const due = Array.from({ length: 12 }, (_, i) => `item${i}`);
    const claimsWhileBusy: number[] = [];
    let busy = 0;
    const worked = await drainQueue<string>(
      {
        claim: async (limit) => {
          claimsWhileBusy.push(busy);
          return due.splice(0, limit);
        },
        work: async () => {
          busy++;
          await new Promise((resolve) => setTimeout(resolve, 5));
          busy--;
        },
        release: async () => undefined,
      },
      { concurrency: 4, batchSize: 4, stopping: () => false },
    );
    expect(worked).toBe(12);
    // Only the first claim finds the pool idle; every later one is made while items are in flight.
    expect(claimsWhileBusy.slice(1).every((n) => n > 0)).toBe(true);
  });

  it('keeps half a pool claimed ahead while every worker is busy, even when claims come back partial', async () => {
    const queue = memoryQueue();
    queue.due.push(...Array.from({ length: 12 }, (_, i) => `item${i}`));
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    for (const item of queue.due) queue.gates.set(item, gate);
    // A source that finds one row per claim, as while a pass is still making its charges.
    const source: PoolSource<string> = { ...queue.source, claim: async () => queue.due.splice(0, 1) };
    const drained = drainQueue(source, { concurrency: 4, batchSize: 4, stopping: () => false });
    // Four items in the workers' hands, two more (half a pool) waiting for the first worker that ends.
    const deadline = Date.now() + 5_000;
    while (queue.due.length > 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queue.due.length).toBe(6);
    open();
    expect(await drained).toBe(12);
  });

  it('takes the next item while a tail is written, and ends only once every tail has', async () => {
    const due = ['a', 'b'];
    const order: string[] = [];
    let openTail = () => undefined as void;
    const tailOfA = new Promise<void>((resolve) => (openTail = resolve));
    const drained = drainQueue<string>(
      {
        claim: async (limit) => due.splice(0, limit),
        work: async (item) => {
          order.push(`work ${item}`);
          if (item === 'a') return { tail: tailOfA.then(() => void order.push('tail a')) };
        },
        release: async () => undefined,
      },
      { concurrency: 1, batchSize: 1, stopping: () => false },
    );
    const deadline = Date.now() + 5_000;
    while (!order.includes('work b') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['work a', 'work b']);
    let ended = false;
    void drained.then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    openTail();
    expect(await drained).toBe(2);
    expect(order).toEqual(['work a', 'work b', 'tail a']);
  });
});
