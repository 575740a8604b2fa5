// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sortLongestFirst } = require('../support/longest-first.sequencer.js') as {
  sortLongestFirst: (tests: FakeTest[], seconds: Record<string, number>, sizeOf: (test: FakeTest) => number) => FakeTest[];
};

interface FakeTest {
  path: string;
  size: number;
  context: { config: { rootDir: string } };
}

const testFile = (relative: string, size = 100): FakeTest => ({ path: `/checkout/${relative}`, size, context: { config: { rootDir: '/checkout' } } });

describe('the longest-first test order', () => {
  it('starts the files that took longest first; a file with no record counts as ten seconds, the larger first', () => {
    const tests = [testFile('test/a.spec.ts'), testFile('test/new-small.spec.ts', 10), testFile('test/b.spec.ts'), testFile('src/c.spec.ts'), testFile('test/new-big.spec.ts', 5000)];
    const seconds = { 'test/a.spec.ts': 12, 'test/b.spec.ts': 240, 'src/c.spec.ts': 0.4 };
    const order = sortLongestFirst(tests, seconds, (t) => t.size).map((t) => t.path.replace('/checkout/', ''));
    expect(order).toEqual(['test/b.spec.ts', 'test/a.spec.ts', 'test/new-big.spec.ts', 'test/new-small.spec.ts', 'src/c.spec.ts']);
  });

  it('keeps every file when nothing is recorded', () => {
    const tests = [testFile('x.spec.ts', 1), testFile('y.spec.ts', 3), testFile('z.spec.ts', 2)];
    expect(sortLongestFirst(tests, {}, (t) => t.size).map((t) => t.path)).toEqual(['/checkout/y.spec.ts', '/checkout/z.spec.ts', '/checkout/x.spec.ts']);
  });
});
