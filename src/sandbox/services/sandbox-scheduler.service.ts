import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';

/**
 * Real timers for the provider's asynchronous steps, all tracked so that reset and close cancel them.
 * Timers are unref'd: a pending simulated payment never keeps a test process alive.
 */
@Injectable()
export class SandboxScheduler implements OnModuleDestroy {
  private readonly logger = new Logger(SandboxScheduler.name);
  /** Simulated provider steps: cancelled by reset. */
  private readonly tasks = new Set<NodeJS.Timeout>();
  /** Injected latency of requests in flight: only close cancels these. */
  private readonly sleeps = new Set<NodeJS.Timeout>();
  private stopped = false;

  after(ms: number, task: () => void): void {
    this.track(this.tasks, ms, () => {
      try {
        task();
      } catch (e) {
        this.logger.error(`A scheduled sandbox step failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
  }

  /** Resolves after `ms`; never resolves once the sandbox has stopped (its socket is gone by then). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.track(this.sleeps, ms, resolve));
  }

  /** Forgets every pending provider step (reset). */
  cancelAll(): void {
    for (const timer of this.tasks) clearTimeout(timer);
    this.tasks.clear();
  }

  stop(): void {
    this.stopped = true;
    this.cancelAll();
    for (const timer of this.sleeps) clearTimeout(timer);
    this.sleeps.clear();
  }

  private track(set: Set<NodeJS.Timeout>, ms: number, run: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      set.delete(timer);
      run();
    }, Math.max(0, ms));
    timer.unref();
    set.add(timer);
  }

  onModuleDestroy(): void {
    this.stop();
  }
}
