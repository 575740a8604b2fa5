import type { Logger } from 'pino';
import type { WaitLog } from '../database/wait-for-database';
import { startBootHealthServer } from './boot-health-server';

/**
 * The boot's waits for PostgreSQL (the migrations, then the application's connections), told in the boot log; while
 * one lasts the daemon's port answers live 200 and ready 503 (startBootHealthServer), so an orchestrator neither
 * restarts the replica nor routes to it. `release()` hands the port back before the application listens on it.
 */
export class BootDatabaseWait implements WaitLog {
  private health: Promise<{ close(): Promise<void> } | undefined> | undefined;

  constructor(
    private readonly port: number,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
  ) {}

  warn(fields: Record<string, unknown>, message: string): void {
    this.log.warn(fields, message);
    this.health ??= startBootHealthServer(this.port).catch(() => undefined);
  }

  info(message: string): void {
    this.log.info(message);
  }

  async release(): Promise<void> {
    const health = this.health;
    this.health = undefined;
    await (await health)?.close();
  }
}
