import { join } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { keepSandboxPort, readKeptSandboxPort } from '../config/data-dir-files';
import { SandboxHandle, startSandbox } from './sandbox-server';

export interface BuiltInSandbox {
  handle: SandboxHandle;
  port: number;
  /** Set when the kept port was taken and another one was chosen (hosted form links made before no longer work). */
  portChangedFrom?: number;
}

function isAddressInUse(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/**
 * Starts the sandbox the daemon uses when PROVIDER_URL is unset, on a stable port: SANDBOX_PORT when set (a taken
 * port is an error), else the port kept in DATA_DIR/sandbox-port, else a free one, which is then kept. Hosted form
 * links carry this port, so they keep working across restarts.
 */
export async function startBuiltInSandbox(config: AppConfig): Promise<BuiltInSandbox> {
  const start = (port: number) =>
    startSandbox({ port, host: config.sandboxHost, apiKey: config.providerApiKey, shopId: config.providerShopId, stateFile: join(config.dataDir, 'sandbox-state.json') });
  const portOf = (handle: SandboxHandle) => Number(new URL(handle.url).port);

  if (config.sandboxPort !== undefined) {
    try {
      return { handle: await start(config.sandboxPort), port: config.sandboxPort };
    } catch (e) {
      if (isAddressInUse(e)) throw new Error(`SANDBOX_PORT=${config.sandboxPort} is already in use: stop what listens there or choose another port`);
      throw e;
    }
  }

  const kept = readKeptSandboxPort(config.dataDir);
  let handle: SandboxHandle | undefined;
  if (kept !== undefined) {
    try {
      handle = await start(kept);
    } catch (e) {
      if (!isAddressInUse(e)) throw e;
    }
  }
  handle ??= await start(0);
  const port = portOf(handle);
  if (port !== kept) keepSandboxPort(config.dataDir, port);
  return { handle, port, ...(kept !== undefined && port !== kept ? { portChangedFrom: kept } : {}) };
}
