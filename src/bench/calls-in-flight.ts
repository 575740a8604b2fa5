import http from 'node:http';

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

/**
 * Meters every outgoing HTTP request of this process to `port` (the provider simulator's), from the request
 * until its response ended or it failed: the daemon's provider calls, whatever client library makes them.
 */
export function meterHttpTo(port: number): InFlightMeter & { restore(): void } {
  const original = http.request;
  const meter = Object.assign(new InFlightMeter(), { restore: () => ((http as { request: typeof http.request }).request = original) });
  const patched = function (this: unknown, ...args: unknown[]): http.ClientRequest {
    const req = (original as (...a: unknown[]) => http.ClientRequest).apply(this, args);
    const options = (typeof args[0] === 'object' && args[0] !== null && !(args[0] instanceof URL) ? args[0] : args[1]) as http.RequestOptions | undefined;
    if (Number(options?.port) !== port) return req;
    // One listener: a request emits 'close' once its response has ended (a tick later, when the socket is
    // freed for the next request) or once it failed. The meter costs the daemon's process about what the bare
    // client's costs it, so the floor and the daemon are measured alike.
    req.once('close', meter.begin(isPaymentRead(options?.method, options?.path ?? undefined)));
    return req;
  };
  (http as { request: typeof http.request }).request = patched as typeof http.request;
  return meter;
}
