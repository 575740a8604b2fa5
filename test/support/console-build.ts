import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_ASSETS_DIR } from '../../src/console/console-assets';

const ROOT = join(__dirname, '..', '..');

/**
 * The built console (dist/public/console), as `npm run build` leaves it and CI runs the tests after. A developer who
 * runs one test file without building gets it built here once (about 15 s) rather than a page that says "not built".
 */
export function ensureConsoleBuilt(): string {
  if (!existsSync(join(CONSOLE_ASSETS_DIR, 'index.html'))) {
    execFileSync('npm', ['run', '--silent', 'console:build'], { cwd: ROOT, stdio: 'inherit' });
  }
  return CONSOLE_ASSETS_DIR;
}
