import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { WorkMetricsService } from './work-metrics.service';
import { WorkTuning } from './work-tuning';
import { WorkersRepository } from './workers.repository';

/** What the registry asks of each leased queue. */
export interface RegisteredQueue {
  /** The queue's name (LeasedQueueDefinition.name), the one its loop is started and kicked by. */
  readonly name: string;
  /** Hands back everything the queue still holds for this process (clean shutdown). */
  releaseAll(workerId: string): Promise<void>;
  /** Hands back rows whose work ended but whose own release did not reach the database (an outage). */
  sweep(workerId: string): Promise<void>;
  /** Frees rows leased to this process that it does not work on (a claim whose answer was lost). */
  recover(workerId: string): Promise<void>;
}

/**
 * This process's identity in the `workers` table and its heartbeat. Claims are held as long as the
 * heartbeat goes on, however slow the work, and taken over by others as soon as it lapses. On a clean
 * shutdown, once the work in flight has ended, every claim still held is handed back and the row removed.
 */
@Injectable()
export class WorkerRegistryService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WorkerRegistryService.name);
  readonly workerId = `${hostname().slice(0, 60)}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly queues: RegisteredQueue[] = [];
  private readonly activities = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private registered: Promise<void> | undefined;

  constructor(
    private readonly workers: WorkersRepository,
    private readonly tuning: WorkTuning,
    private readonly metrics: WorkMetricsService,
  ) {}

  /** The seconds after which a silent owner counts as dead, for the claim SQL. */
  get lapseSeconds(): number {
    return this.tuning.lapseMs / 1000;
  }

  onApplicationBootstrap(): Promise<void> {
    // Tracked, so shutdown waits for a beat under way before the connections close (its queries would fail late).
    this.timer = setInterval(() => void this.track(this.beat()), this.tuning.heartbeatMs);
    this.timer.unref();
    return this.ensureRegistered();
  }

  /** Resolves once this process has a row (claims name it); any claim waits for it. */
  ensureRegistered(): Promise<void> {
    this.registered ??= this.beat();
    return this.registered;
  }

  addQueue(queue: RegisteredQueue): void {
    this.queues.push(queue);
  }

  /** Whether a queue of this name was made (LeasedQueues.create). */
  hasQueue(name: string): boolean {
    return this.queues.some((queue) => queue.name === name);
  }

  /** Work that must end before claims are handed back at shutdown. */
  track<T>(work: Promise<T>): Promise<T> {
    this.activities.add(work);
    const forget = () => this.activities.delete(work);
    work.then(forget, forget);
    return work;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.activities]);
    try {
      for (const queue of this.queues) await queue.releaseAll(this.workerId);
      await this.workers.remove(this.workerId);
    } catch (error) {
      // The heartbeat stops anyway, so the claims are taken over once it lapses.
      this.logger.warn({ err: error }, 'Could not hand back claims at shutdown; other processes take them over when the heartbeat lapses');
    }
  }

  private async beat(): Promise<void> {
    try {
      await this.workers.beat(this.workerId, hostname().slice(0, 255), process.pid);
    } catch (error) {
      this.metrics.heartbeatFailures.inc();
      this.logger.warn({ err: error }, 'Heartbeat failed; claims of this process may be taken over, fencing keeps them safe');
      return;
    }
    for (const queue of this.queues) {
      await queue.sweep(this.workerId).catch((error: unknown) => this.logger.warn({ err: error }, 'Could not hand back finished claims; the next heartbeat tries again'));
      await queue.recover(this.workerId).catch((error: unknown) => this.logger.warn({ err: error }, 'Could not look for leases lost by this process; the next heartbeat tries again'));
    }
  }
}
