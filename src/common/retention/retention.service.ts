import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

const SWEEP_EVERY_MS = 3_600_000;

/** One kind of record past its retention, and how to delete it (answers how many went). */
interface RetentionRule {
  what: string;
  prune: () => Promise<number>;
}

/**
 * What is kept how long: each module registers the pruning of its own records (idempotency records, events, webhook
 * attempts, provider events), and one hourly sweep runs them all, in the processes that run the scheduler. A failed
 * prune is logged and tried again at the next sweep.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RetentionService.name);
  private readonly rules: RetentionRule[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly config: AppConfig) {}

  register(what: string, prune: () => Promise<number>): void {
    this.rules.push({ what, prune });
  }

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Runs every rule once; answers how many records each deleted. */
  async sweep(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const rule of this.rules) {
      try {
        deleted[rule.what] = await rule.prune();
        if (deleted[rule.what] > 0) this.logger.log(`Deleted ${deleted[rule.what]} ${rule.what} past their retention`);
      } catch (error) {
        this.logger.warn({ err: error }, `Could not delete old ${rule.what}; the next sweep tries again`);
      }
    }
    return deleted;
  }
}
