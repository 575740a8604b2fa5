import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SandboxConfig } from '../sandbox-config';
import type { SandboxSnapshot } from '../state/sandbox-records';
import { SandboxState } from '../state/sandbox-state';
import { SandboxStateService } from '../state/sandbox-state.service';

/** Shortest gap between two saves; a large state stretches it (10 × the last save's duration). */
const MIN_SAVE_INTERVAL_MS = 500;

/**
 * Optional JSON persistence, so that a daemon restart keeps its sandbox customers and invoices. Saves are
 * throttled, atomic (temp file + rename) and final on shutdown. The file holds access tokens but never a
 * card number or CVV (the vault keeps none).
 */
@Injectable()
export class SandboxPersistenceService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(SandboxPersistenceService.name);
  private saveTimer: NodeJS.Timeout | undefined;
  private interval = MIN_SAVE_INTERVAL_MS;
  private dirty = false;

  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxStateService,
  ) {}

  onModuleInit(): void {
    const file = this.config.stateFile;
    if (!file) return;
    this.load(file);
    this.store.onChange(() => this.scheduleSave());
  }

  beforeApplicationShutdown(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.dirty) this.saveNow();
  }

  private load(file: string): void {
    if (!existsSync(file)) return;
    try {
      const snapshot = JSON.parse(readFileSync(file, 'utf8')) as SandboxSnapshot;
      this.store.replace(SandboxState.fromSnapshot(snapshot));
      this.logger.log(`Sandbox state restored from ${file}`);
    } catch (e) {
      // A broken file must not stop the daemon; keep it aside for inspection and start empty.
      const aside = `${file}.corrupt-${Date.now()}`;
      renameSync(file, aside);
      this.logger.warn(`Sandbox state file ${file} could not be read (${e instanceof Error ? e.message : String(e)}); moved to ${aside}, starting empty`);
    }
  }

  private scheduleSave(): void {
    this.dirty = true;
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.saveNow();
    }, this.interval);
    this.saveTimer.unref();
  }

  private saveNow(): void {
    const file = this.config.stateFile;
    if (!file) return;
    const started = Date.now();
    try {
      const temp = `${file}.tmp`;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(temp, JSON.stringify(this.store.state.toSnapshot()), { mode: 0o600 });
      renameSync(temp, file);
      this.dirty = false;
    } catch (e) {
      this.logger.error(`Sandbox state could not be saved to ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.interval = Math.max(MIN_SAVE_INTERVAL_MS, 10 * (Date.now() - started));
  }
}
