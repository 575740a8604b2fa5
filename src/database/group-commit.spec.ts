import { GroupCommit } from './group-commit';

/** A write whose statements the test answers by hand, recording what each one held. */
function manualWrite() {
  const statements: { items: number[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      statements.push({ items, answer: () => resolve(items.map((n) => `done ${n}`)), fail: reject });
    });
  return { statements, write };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('writes an item at once when a statement slot is free, and the items that come meanwhile together in the next statement', async () => {
    const { statements, write } = manualWrite();
    const group = new GroupCommit(write, { maxBatch: 10, maxInFlight: 1 });
    const first = group.submit(1);
    const others = [2, 3, 4].map((n) => group.submit(n));
    expect(statements.map((s) => s.items)).toEqual([[1]]);

    statements[0].answer();
    await expect(first).resolves.toBe('done 1');
    expect(statements.map((s) => s.items)).toEqual([[1], [2, 3, 4]]);
    statements[1].answer();
    await expect(Promise.all(others)).resolves.toEqual(['done 2', 'done 3', 'done 4']);
  });

  it('never waits on a timer under light load: each slot in flight takes an item of its own', () => {
    const { statements, write } = manualWrite();
    const group = new GroupCommit(write, { maxBatch: 10, maxInFlight: 2 });
    void group.submit(1);
    void group.submit(2);
    void group.submit(3);
    expect(statements.map((s) => s.items)).toEqual([[1], [2]]);
  });

  it('puts at most maxBatch items in one statement', async () => {
    const { statements, write } = manualWrite();
    const group = new GroupCommit(write, { maxBatch: 2, maxInFlight: 1 });
    const all = [1, 2, 3, 4, 5, 6].map((n) => group.submit(n));
    statements[0].answer();
    await settled();
    statements[1].answer();
    await settled();
    statements[2].answer();
    await settled();
    statements[3].answer();
    await expect(Promise.all(all)).resolves.toHaveLength(6);
    expect(statements.map((s) => s.items)).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it('writes each item of a failed batch again alone, so only the item the database refuses fails its caller', async () => {
    const written: number[][] = [];
    const group = new GroupCommit(
      async (items: number[]) => {
        written.push(items);
        if (items.includes(13)) throw new Error('value too long for type character varying(40)');
        return items.map((n) => n * 10);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([12, 13, 14].map((n) => group.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 120 },
      { status: 'rejected', reason: new Error('value too long for type character varying(40)') },
      { status: 'fulfilled', value: 140 },
    ]);
    expect(written).toEqual([[12], [13, 14], [13], [14]]);
  });

  it('fails the caller of a lone item with the database error, and goes on with the next items', async () => {
    const { statements, write } = manualWrite();
    const group = new GroupCommit(write, { maxBatch: 10, maxInFlight: 1 });
    const lone = group.submit(1);
    const next = group.submit(2);
    statements[0].fail(new Error('connection terminated'));
    await expect(lone).rejects.toThrow('connection terminated');
    expect(statements.map((s) => s.items)).toEqual([[1], [2]]);
    statements[1].answer();
    await expect(next).resolves.toBe('done 2');
  });
});
