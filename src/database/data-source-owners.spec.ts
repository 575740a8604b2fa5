import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..');

/** The engine's own machinery (src/work) is not a domain service: it runs every queue's statements. */
const ENGINE = 'work/';

function serviceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serviceFiles(path);
    return entry.name.endsWith('.service.ts') ? [path] : [];
  });
}

describe('the DataSource', () => {
  it('is a repository\'s to use: no domain service injects it (a module\'s SQL lives in its *.repository.ts files)', () => {
    const offenders = serviceFiles(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => !file.startsWith(ENGINE))
      .filter((file) => /\bDataSource\b/.test(readFileSync(join(SRC, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
