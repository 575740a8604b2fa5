import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ShutdownSignal } from '../common/shutdown-signal';
import { AppConfig } from '../config/app-config';
import { WorkTuning } from './work-tuning';
import { WorkerRegistryService } from './worker-registry.service';

interface Loop {
  wake: () => void;
  running: Promise<void>;
}

/**
 * Keeps each queue worked in this process when SCHEDULER_ENABLED: a loop per queue runs `drain` until it finds
 * nothing, then sleeps `idlePollMs` (or until kicked) and looks again. The short idle poll is what lets a
 * killed process's work and a backoff that ended resume within seconds, at the cost of one cheap claim
 * statement per queue per second.
 */
@Injectable()
export class WorkRunnerService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WorkRunnerService.name);
  private readonly loops = new Map<string, Loop>();
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly tuning: WorkTuning,
    private readonly registry: WorkerRegistryService,
    private readonly shutdown: ShutdownSignal,
  ) {}

  get enabled(): boolean {
    return this.config.schedulerEnabled;
  }

  /**
   * Starts the loop of the queue `name` (no-op when the scheduler is off). `drain` answers how many items it worked.
   * `name` is the queue's own (its definition's, one constant per queue); a name no queue has is a programming error.
   */
  start(name: string, drain: () => Promise<number>): void {
    this.refuseUnknown(name, 'start');
    if (!this.enabled || this.loops.has(name)) return;
    let wake = () => undefined as void;
    // A kick while a drain runs is remembered: that drain may have looked before the new work was committed.
    let kicked = false;
    const loop: Loop = {
      wake: () => {
        kicked = true;
        wake();
      },
      running: Promise.resolve(),
    };
    loop.running = this.registry.track(
      (async () => {
        while (!this.isStopping()) {
          let worked = 0;
          kicked = false;
          try {
            worked = await drain();
          } catch (error) {
            this.logger.error({ err: error, queue: name }, 'Work loop failed; it tries again shortly');
          }
          if (worked > 0 || kicked || this.isStopping()) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, this.tuning.idlePollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      })(),
    );
    this.loops.set(name, loop);
  }

  /**
   * New work for the queue `name` (a payout accepted, a binding started): look now instead of at the next poll (no-op
   * when the scheduler is off here). A name no queue has throws: a kick that reached no queue would leave the work
   * to the next idle poll, silently.
   */
  kick(name: string): void {
    this.refuseUnknown(name, 'kick');
    this.loops.get(name)?.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const loop of this.loops.values()) loop.wake();
    await Promise.allSettled([...this.loops.values()].map((l) => l.running));
  }

  private refuseUnknown(name: string, what: 'start' | 'kick'): void {
    if (!this.registry.hasQueue(name)) throw new Error(`No queue is named ${name}: ${what} takes the name of a queue made with LeasedQueues.create`);
  }

  private isStopping(): boolean {
    return this.stopped || this.shutdown.isShuttingDown;
  }
}
