/** Per-endpoint pacing state of one process (endpoints are few: one small entry each, kept). */
interface EndpointPace {
  inFlight: number;
  /** Moving average of this endpoint's answer time. */
  latencyMs: number;
  /** When the next delivery waiting for this endpoint is expected to find a free slot. */
  nextSlotAt: number;
}

/**
 * Keeps each endpoint to at most `perEndpoint` deliveries in flight in this process, so a slow endpoint never takes
 * every worker, and tells a delivery that finds its endpoint full how long to wait: slots are handed out one after
 * another at the endpoint's own pace (its average answer time over the number of slots), so a backlog for one
 * endpoint drains at the rate that endpoint answers, each waiting delivery looked at again about when a slot frees.
 */
export class EndpointPacer {
  private readonly endpoints = new Map<string, EndpointPace>();

  constructor(private readonly options: { perEndpoint: number; initialLatencyMs: number; maxDeferMs: number }) {}

  /** Takes a slot for a delivery to `endpointId`; false when the endpoint has none free. */
  tryAcquire(endpointId: string): boolean {
    const pace = this.pace(endpointId);
    if (pace.inFlight >= this.options.perEndpoint) return false;
    pace.inFlight++;
    return true;
  }

  /** Gives the slot back at `now` (ms), learning how long the endpoint took to answer. */
  release(endpointId: string, durationMs: number, now: number): void {
    const pace = this.pace(endpointId);
    pace.inFlight = Math.max(0, pace.inFlight - 1);
    pace.latencyMs = Math.round(pace.latencyMs * 0.8 + Math.max(1, durationMs) * 0.2);
    // An endpoint that has caught up starts its next backlog afresh.
    if (pace.inFlight === 0 && pace.nextSlotAt < now) pace.nextSlotAt = 0;
  }

  /** For a delivery that found its endpoint full at `now` (ms): the wait until the slot reserved for it. */
  deferralMs(endpointId: string, now: number): number {
    const pace = this.pace(endpointId);
    const slotAt = Math.max(now, pace.nextSlotAt) + pace.latencyMs / this.options.perEndpoint;
    pace.nextSlotAt = slotAt;
    return Math.min(Math.max(Math.round(slotAt - now), 1), this.options.maxDeferMs);
  }

  private pace(endpointId: string): EndpointPace {
    let pace = this.endpoints.get(endpointId);
    if (!pace) {
      pace = { inFlight: 0, latencyMs: this.options.initialLatencyMs, nextSlotAt: 0 };
      this.endpoints.set(endpointId, pace);
    }
    return pace;
  }
}
