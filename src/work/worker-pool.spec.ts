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
