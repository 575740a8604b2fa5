import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('dunning has one home', () => {
  it('no module but dunning (and plans, which store the setting) branches on the strategy', () => {
    const offenders = sources(SRC)
      .filter((path) => !/^(dunning|plans|bench)\//.test(relative(SRC, path)))
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(SRC, path)}:${i + 1}` }))
          .filter(({ line }) => /\bstrategy\s*[!=]==|===\s*'(smart|fixed)'|\.strategy\b(?!')/.test(line))
          .map(({ at }) => at),
      );
    expect(offenders).toEqual([]);
  });

  it('one hard-decline list and one attempt cap', () => {
    const all = sources(SRC).map((path) => readFileSync(path, 'utf8'));
    expect(all.filter((text) => /'card_expired',/.test(text))).toHaveLength(1);
    expect(all.filter((text) => /ATTEMPT_WINDOW_MS\s*=/.test(text))).toHaveLength(1);
  });
});
