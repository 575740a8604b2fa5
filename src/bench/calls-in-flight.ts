import diagnosticsChannel from 'node:diagnostics_channel';

/** Calls in flight over time: their time-weighted average between `start()` and `read()`, and how many were made. */
export class InFlightMeter {
  private current = 0;
  private area = 0;
  private last = 0;
  private startedAt = 0;
  private calls = 0;
  private reads = 0;

  /** A call began; `isRead` counts it as a payment read. Answers the function that ends it (idempotent). */
  begin(isRead: boolean): () => void {
    this.advance();
    this.current++;
    this.calls++;
    if (isRead) this.reads++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.advance();
      this.current--;
    };
  }

  start(): void {
    this.area = 0;
    this.calls = 0;
    this.reads = 0;
    this.startedAt = this.last = performance.now();
  }

  read(): { average: number; calls: number; paymentReads: number } {
    this.advance();
    const span = this.last - this.startedAt;
    return { average: span > 0 ? this.area / span : 0, calls: this.calls, paymentReads: this.reads };
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
