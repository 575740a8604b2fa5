import diagnosticsChannel from 'node:diagnostics_channel';

/**
 * The time-weighted average of a step function over each tenth of [from, to]. `steps` alternates a time and the level
 * from that time on, times ascending; the level before the first step is 0. Shows where in a run slots sat idle: a
 * slow start, a gap mid-run or a long tail.
 */
export function averageByTenth(steps: readonly number[], from: number, to: number): number[] {
  const span = to - from;
  const areas = new Array<number>(10).fill(0);
  if (span <= 0) return areas;
  const width = span / 10;
  for (let k = 0; k < steps.length; k += 2) {
    const level = steps[k + 1];
    const start = Math.max(steps[k], from);
    const end = Math.min(k + 2 < steps.length ? steps[k + 2] : to, to);
    if (level === 0 || start >= end) continue;
    // Each tenth the segment overlaps, by its bounds (a loop driven by the bounds alone ends whatever the rounding).
    const last = Math.min(9, Math.floor((end - from) / width));
    for (let tenth = Math.max(0, Math.floor((start - from) / width) - 1); tenth <= last; tenth++) {
      const overlap = Math.min(end, tenth === 9 ? to : from + (tenth + 1) * width) - Math.max(start, from + tenth * width);
      if (overlap > 0) areas[tenth] += level * overlap;
    }
  }
  return areas.map((area) => area / width);
}

/**
 * Calls in flight over time: their time-weighted average between `start()` and `read()`, how many were made, and the
 * two idle ends of a run (before its first call, after its last answer), where no slot can be busy.
 */
export class InFlightMeter {
  private current = 0;
  private area = 0;
  private last = 0;
  private startedAt = 0;
  private calls = 0;
  private reads = 0;
  private firstCallAt: number | undefined;
  private lastEndAt: number | undefined;
  /** Each change since start(): its time, then the level after it (see averageByTenth). */
  private steps: number[] = [];

  /** A call began; `isRead` counts it as a payment read. Answers the function that ends it (idempotent). */
  begin(isRead: boolean): () => void {
    this.advance();
    this.firstCallAt ??= this.last;
    this.current++;
    this.steps.push(this.last, this.current);
    this.calls++;
    if (isRead) this.reads++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.advance();
      this.current--;
      this.steps.push(this.last, this.current);
      this.lastEndAt = this.last;
    };
  }

  start(): void {
    this.area = 0;
    this.calls = 0;
    this.reads = 0;
    this.firstCallAt = this.lastEndAt = undefined;
    this.startedAt = this.last = performance.now();
    this.steps = [this.startedAt, this.current];
  }

  /**
   * `firstCallMs`: from start to the first call (the whole span without one); `tailMs`: from the last answer to now (0
   * while calls are in flight); `byTenth`: the average in flight over each tenth of the span.
   */
  read(): { average: number; calls: number; paymentReads: number; firstCallMs: number; tailMs: number; byTenth: number[] } {
    this.advance();
    const span = this.last - this.startedAt;
    const firstCallMs = (this.firstCallAt ?? this.last) - this.startedAt;
    const tailMs = this.current > 0 || this.lastEndAt === undefined ? 0 : this.last - this.lastEndAt;
    return {
      average: span > 0 ? this.area / span : 0,
      calls: this.calls,
      paymentReads: this.reads,
      firstCallMs,
      tailMs,
      byTenth: averageByTenth(this.steps, this.startedAt, this.last),
    };
  }

  private advance(): void {
    const now = performance.now();
    this.area += this.current * (now - this.last);
    this.last = now;
  }
}

/** A payment read: GET …/invoices/{id}/payments/{paymentID}. */
export function isPaymentRead(method: string | undefined, path: string | undefined): boolean {
  return (method ?? 'GET').toUpperCase() === 'GET' && /\/invoices\/[^/]+\/payments\/[^/?]+/.test(path ?? '');
}

interface UndiciRequestMessage {
  request: { origin?: string | URL; method?: string; path?: string };
}

/**
 * Meters every outgoing request of this process's undici client to `port` (the provider simulator's), from its
 * dispatch until its response ended or it failed: the daemon's provider calls, through undici's diagnostics channels
 * (published only while something listens). The bare client's meter wraps its calls alike, so the floor and the
 * daemon are measured the same way.
 */
export function meterHttpTo(port: number): InFlightMeter & { restore(): void } {
  const ends = new WeakMap<object, () => void>();
  const suffix = `:${port}`;
  const toPort = (origin: string | URL | undefined) => origin !== undefined && String(origin).replace(/\/$/, '').endsWith(suffix);
  const onCreate = (message: unknown) => {
    const { request } = message as UndiciRequestMessage;
    if (toPort(request.origin)) ends.set(request, meter.begin(isPaymentRead(request.method, request.path)));
  };
  const onEnd = (message: unknown) => {
    const { request } = message as UndiciRequestMessage;
    ends.get(request)?.();
    ends.delete(request);
  };
  const subscriptions: [string, (message: unknown) => void][] = [
    ['undici:request:create', onCreate],
    ['undici:request:trailers', onEnd],
    ['undici:request:error', onEnd],
  ];
  const meter = Object.assign(new InFlightMeter(), {
    restore: () => subscriptions.forEach(([name, listener]) => diagnosticsChannel.unsubscribe(name, listener)),
  });
  subscriptions.forEach(([name, listener]) => diagnosticsChannel.subscribe(name, listener));
  return meter;
}
