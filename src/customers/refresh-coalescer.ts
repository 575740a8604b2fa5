/**
 * Concurrent refreshes of one customer share their reads: at most one read in flight and one waiting, per customer.
 * A request joins the waiting read, never the one in flight: that read may have started before the request, and a
 * refresh must show the provider as it was at the request or later. Without this, a client refreshing one customer
 * several times at once queued one write-back per request on the customer's row, each holding a pooled connection
 * while it waited, and a busy daemon answered other requests 503.
 */
export class RefreshCoalescer<R> {
  private readonly inFlight = new Map<string, Promise<R>>();
  private readonly waiting = new Map<string, Promise<R>>();

  run(key: string, read: () => Promise<R>): Promise<R> {
    const waiting = this.waiting.get(key);
    if (waiting) return waiting;
    const running = this.inFlight.get(key);
    if (!running) return this.start(key, read);
    const next = running.then(settled, settled).then(() => {
      this.waiting.delete(key);
      return this.start(key, read);
    });
    this.waiting.set(key, next);
    return next;
  }

  /** Keys with a read in flight or waiting (for tests: nothing is kept once reads end). */
  get size(): number {
    return new Set([...this.inFlight.keys(), ...this.waiting.keys()]).size;
  }

  private start(key: string, read: () => Promise<R>): Promise<R> {
    const running = (async () => read())();
    this.inFlight.set(key, running);
    const forget = () => {
      if (this.inFlight.get(key) === running) this.inFlight.delete(key);
    };
    running.then(forget, forget);
    return running;
  }
}

function settled(): void {}
