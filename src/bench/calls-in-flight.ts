import diagnosticsChannel from 'node:diagnostics_channel';
import { AreaOverTime } from './area-over-time';

/**
 * Calls in flight over time: their time-weighted average between `start()` and `read()`, how many were made, and the
 * two idle ends of a run (before its first call, after its last answer), where no slot can be busy.
 */
export class InFlightMeter {
  private current = 0;
  private area = new AreaOverTime(0);
  private last = 0;
  private startedAt = 0;
  private calls = 0;
  private reads = 0;
  private firstCallAt: number | undefined;
  private lastEndAt: number | undefined;

  /** A call began; `isRead` counts it as a payment read. Answers the function that ends it (idempotent). */
  begin(isRead: boolean): () => void {
    this.advance();
    this.firstCallAt ??= this.last;
    this.current++;
    this.calls++;
    if (isRead) this.reads++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.advance();
      this.current--;
      this.lastEndAt = this.last;
    };
  }

  start(): void {
    this.calls = 0;
    this.reads = 0;
    this.firstCallAt = this.lastEndAt = undefined;
    this.startedAt = this.last = performance.now();
    this.area = new AreaOverTime(this.startedAt);
  }

  /**
   * `firstCallMs`: from start to the first call (the whole span without one); `tailMs`: from the last answer to now (0
   * while calls are in flight); `byTenth`: the average in flight over each tenth of the span; `callMs`: the average
   * time a call was in flight (the area under the in-flight curve over the calls made: with as many in flight, a
   * run whose calls take longer makes fewer of them).
   */
  read(): { average: number; calls: number; paymentReads: number; firstCallMs: number; tailMs: number; byTenth: number[]; callMs: number } {
    this.advance();
    const firstCallMs = (this.firstCallAt ?? this.last) - this.startedAt;
    const tailMs = this.current > 0 || this.lastEndAt === undefined ? 0 : this.last - this.lastEndAt;
    const average = this.area.average(this.last);
    return {
      average,
      callMs: this.calls === 0 ? 0 : (average * (this.last - this.startedAt)) / this.calls,
      calls: this.calls,
      paymentReads: this.reads,
      firstCallMs,
      tailMs,
      byTenth: this.area.averageByTenth(this.last),
    };
  }

  private advance(): void {
    const now = performance.now();
    this.area.add(this.current, this.last, now);
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
