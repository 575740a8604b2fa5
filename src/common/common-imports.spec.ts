import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = join(__dirname, '..');
const COMMON = __dirname;

/**
 * The common module is shared by every domain, so it names none of them: besides itself it may use the
 * configuration and the database layer, which depend on no domain either. A domain that common needs something of
 * provides it behind an abstract class common declares (the admin guard's ApiKeyVerifier, SessionCredentials,
 * CredentialRateLimit, AuthFailureLimit). An entry point (`*.main.ts`) is no part of the module: it starts the whole
 * application (the API description is written from it), so it may import the application; a spec may use test/.
 */
const ALLOWED = ['common/', 'config/', 'database/'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each relative import of `file`, as a path from src/ (`../test/…` for the test folder). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport|\brequire\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => relative(SRC, resolve(dirname(file), m[1])));
}

describe('the common module', () => {
  it('imports no domain module: only common, config and database', () => {
    const offenders = files(COMMON).flatMap((file) => {
      const name = relative(SRC, file);
      return importsOf(file)
        .filter((target) => !ALLOWED.some((prefix) => target.startsWith(prefix)))
        .filter((target) => !(name.endsWith('.main.ts') && target === 'app.factory'))
        .filter((target) => !(name.endsWith('.spec.ts') && target.startsWith('../test/')))
        .map((target) => `${name} -> ${target}`);
    });
    expect(offenders).toEqual([]);
  });
});
