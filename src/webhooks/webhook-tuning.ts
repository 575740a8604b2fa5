import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Knobs of merchant webhook delivery that are not public configuration; tests shorten the retry schedule. */
export class WebhookTuning {
  /** Waits after the 1st, 2nd, … failed attempt (the contract's ladder); afterwards `repeatDelayMs`. */
  retryDelaysMs: number[] = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR];
  repeatDelayMs = 6 * HOUR;
  /** No attempt starts later than this after the delivery was queued; then it is failed. */
  giveUpAfterMs = 72 * HOUR;
  /** Each wait is moved by up to this fraction either way, so deliveries that failed together spread out. */
  jitter = 0.1;
  /** Any 2xx within this time is success. */
  timeoutMs = 10 * SECOND;
  /** Deliveries in flight at once in this process. */
  concurrency = 16;
  /** At most this many of them to one endpoint, so a slow endpoint never takes every worker. */
  perEndpointInFlight = 4;
  /** While a delivery is in flight, how often idle workers look for new ones (instead of waiting for it to end). */
  busyPollMs = 250;
  /** The answer time assumed of an endpoint not heard from yet, to pace a backlog for it. */
  initialLatencyMs = 250;
  /** The longest a delivery whose endpoint is full waits before it is looked at again. */
  maxDeferMs = 30_000;
  /** Resolves a webhook host to every address it has (tests stand in a name that changes its answer). */
  lookupHost: (hostname: string) => Promise<LookupAddress[]> = (hostname) => lookup(hostname, { all: true, verbatim: true });
  /** How long creating or changing an endpoint waits for its host to resolve before leaving the check to delivery. */
  createLookupTimeoutMs = 2 * SECOND;
  /** Most webhook endpoints; one event is sent to each subscribed one, so this bounds what one event fans out to. */
  maxEndpoints = 50;
  /** Consecutive failures of an endpoint at which a warning is logged (again at each doubling). */
  warnAfterFailures = 5;

  constructor(values: Partial<WebhookTuning> = {}) {
    Object.assign(this, values);
  }
}
