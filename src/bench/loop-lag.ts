import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** How late this process's event loop ran its timers over a span: an answer waits about that long to be read. */
export interface LoopLagSpent {
  meanMs: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * The event-loop lag of this process between `start()` and `read()`, sampled every 10 ms (Node's default: a finer
 * sampling would cost the measured process CPU of its own). A call's time in flight includes the wait for its
 * answer to be read, so this is the part of it that is the client's rather than the provider's.
 */
export class LoopLag {
  static readonly RESOLUTION_MS = 10;
  private histogram: IntervalHistogram | undefined;

  /** `monitor` is Node's monitorEventLoopDelay; a test gives a histogram of its own. */
  constructor(private readonly monitor: (options: { resolution: number }) => IntervalHistogram = monitorEventLoopDelay) {}

  start(): void {
    this.histogram?.disable();
    this.histogram = this.monitor({ resolution: LoopLag.RESOLUTION_MS });
    this.histogram.enable();
  }

  read(): LoopLagSpent {
    const histogram = this.histogram;
    if (!histogram) throw new Error('LoopLag.read() before start()');
    histogram.disable();
    // With no sample yet (a span shorter than one tick) the histogram's figures are NaN or its largest value.
    if (histogram.count === 0) return { meanMs: 0, p99Ms: 0, maxMs: 0 };
    // The histogram holds the time between two ticks, the sampling interval included: only the excess is lateness.
    const ms = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - LoopLag.RESOLUTION_MS);
    return { meanMs: ms(histogram.mean), p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max) };
  }
}
