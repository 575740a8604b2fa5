import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from './app-config';

/** The generated admin token, kept outside production so it survives restarts (mode 0600: only the owner reads it). */
const ADMIN_TOKEN_FILE = 'admin-token';
/** The built-in sandbox's port, kept so hosted form links survive restarts. */
const SANDBOX_PORT_FILE = 'sandbox-port';

const TOKEN_SHAPE = /^[\x21-\x7e]{16,512}$/;

export class DataDirFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirFileError';
  }
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Outside production, a generated admin token is written to DATA_DIR/admin-token at the first start and read back
 * at every later one, so scripts and bookmarks keep working. Answers the config with that token; a token from
 * ADMIN_TOKEN, or any token in production (where ADMIN_TOKEN is required), is left as it is.
 */
export function keepGeneratedAdminToken(config: AppConfig): AppConfig {
  if (!config.adminTokenGenerated || config.production) return config;
  const path = adminTokenPath(config.dataDir);
  let token = readIfPresent(path)?.trim();
  if (token === undefined) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      // 'wx': when two processes start on one DATA_DIR at once, the second reads what the first wrote.
      writeFileSync(path, `${config.adminToken}\n`, { mode: 0o600, flag: 'wx' });
      token = config.adminToken;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      token = readFileSync(path, 'utf8').trim();
    }
  }
  if (!TOKEN_SHAPE.test(token)) {
    throw new DataDirFileError(`${path} does not hold a usable admin token (16..512 printable characters); delete it to have a new one made`);
  }
  // A copy made with a looser mode (an archive, a cp) is tightened: the file is a credential.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return new AppConfig({ ...config, adminToken: token });
}

export function adminTokenPath(dataDir: string): string {
  return join(dataDir, ADMIN_TOKEN_FILE);
}

/** The sandbox port kept by an earlier start; undefined when none is kept (or the file is unreadable as a port). */
export function readKeptSandboxPort(dataDir: string): number | undefined {
  const text = readIfPresent(join(dataDir, SANDBOX_PORT_FILE))?.trim();
  if (text === undefined || !/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

export function keepSandboxPort(dataDir: string, port: number): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, SANDBOX_PORT_FILE), `${port}\n`);
}
