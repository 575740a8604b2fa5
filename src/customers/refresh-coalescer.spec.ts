import { RefreshCoalescer } from './refresh-coalescer';

/** A read the test finishes by hand, counting how often it was started. */
function scriptedReads() {
  const pending: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  let started = 0;
  const read = () => {
    started += 1;
    const n = started;
    return new Promise<string>((resolve, reject) => pending.push({ resolve: () => resolve(`read ${n}`), reject }));
  };
  return { read, pending, started: () => started };
}

/** Lets every promise callback queued so far run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RefreshCoalescer', () => {
  it('runs one read at a time per customer; requests during a read share the next one', async () => {
    const coalescer = new RefreshCoalescer<string>();
    const reads = scriptedReads();
    const first = coalescer.run('c1', reads.read);
    const second = coalescer.run('c1', reads.read);
    const third = coalescer.run('c1', reads.read);
    await flush();
    expect(reads.started()).toBe(1);

    reads.pending[0].resolve('');
    await expect(first).resolves.toBe('read 1');
    await flush();
    // The waiting read starts only after the one in flight ended: it sees the provider as of the requests or later.
    expect(reads.started()).toBe(2);
    reads.pending[1].resolve('');
    await expect(second).resolves.toBe('read 2');
    await expect(third).resolves.toBe('read 2');
    expect(coalescer.size).toBe(0);
  });

  it('never hands a request the result of a read that started before it', async () => {
    const coalescer = new RefreshCoalescer<string>();
    const reads = scriptedReads();
    void coalescer.run('c1', reads.read);
    const joined = coalescer.run('c1', reads.read);
    reads.pending[0].resolve('');
    await flush();
    // Read 2 is in flight now; a request arriving meanwhile waits for read 3.
    const late = coalescer.run('c1', reads.read);
    reads.pending[1].resolve('');
    await expect(joined).resolves.toBe('read 2');
    await flush();
    expect(reads.started()).toBe(3);
    reads.pending[2].resolve('');
    await expect(late).resolves.toBe('read 3');
  });

  it('reads different customers at once', async () => {
    const coalescer = new RefreshCoalescer<string>();
    const reads = scriptedReads();
    const a = coalescer.run('c1', reads.read);
    const b = coalescer.run('c2', reads.read);
    await flush();
    expect(reads.started()).toBe(2);
    reads.pending.forEach((p) => p.resolve(''));
    await expect(Promise.all([a, b])).resolves.toEqual(['read 1', 'read 2']);
  });

  it('a failed read fails only the requests that shared it; the next read runs', async () => {
    const coalescer = new RefreshCoalescer<string>();
    const reads = scriptedReads();
    const first = coalescer.run('c1', reads.read);
    const second = coalescer.run('c1', reads.read);
    reads.pending[0].reject(new Error('provider away'));
    await expect(first).rejects.toThrow('provider away');
    await flush();
    reads.pending[1].resolve('');
    await expect(second).resolves.toBe('read 2');
    expect(coalescer.size).toBe(0);
  });

  it('a read that throws before it returns a promise fails its request and leaves nothing behind', async () => {
    const coalescer = new RefreshCoalescer<string>();
    await expect(
      coalescer.run('c1', () => {
        throw new Error('bad target');
      }),
    ).rejects.toThrow('bad target');
    expect(coalescer.size).toBe(0);
  });
});
