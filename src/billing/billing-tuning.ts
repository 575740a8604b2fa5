import { AppConfig } from '../config/app-config';

/**
 * Workers of a pass for `slots` provider calls at once: a quarter more than slots (none more below four). A charge
 * also waits on its own database writes (its invoice record before its payment), and a worker waiting on one holds
 * no provider call; with a few more workers than slots, another worker's call is already waiting for the slot
 * (the provider client queues calls beyond its cap), so the slot is not idle meanwhile.
 */
export function chargeWorkersFor(slots: number): number {
  return slots + Math.floor(slots / 4);
}

/** Subscriptions in a pass's first materialized batch; each next batch doubles, up to the configured size. */
export const FIRST_MATERIALIZE_BATCH = 25;

/**
 * Subscriptions to materialize in a pass's `round`-th batch (from 0): small first, so the pass's first charges reach the
 * provider after a batch of 25 rather than of `size` (every provider slot is idle until then), then doubling to
 * `size`, so a big pass still costs a handful of statements per `size` subscriptions.
 */
export function materializeBatchLimit(round: number, size: number): number {
  return Math.max(1, Math.min(size, FIRST_MATERIALIZE_BATCH * 2 ** Math.min(round, 30)));
}

/** Engine knobs that are not part of the public configuration; tests shorten them. */
export class BillingTuning {
  /** How long one worker polls a pending payment before leaving it for the next pass. */
  paymentPollMs: number;
  /** Charges claimed at once by one worker. */
  claimBatchSize: number;
  /** Subscriptions materialized per transaction. */
  materializeBatchSize: number;
  /** Most periods of one subscription charged in one pass (BILLING_MAX_CATCH_UP_PERIODS). */
  maxCatchUpPeriods: number;

  constructor(values: Partial<BillingTuning> = {}) {
    Object.assign(this, values);
  }

  static defaults(config: AppConfig, overrides: Partial<BillingTuning> = {}): BillingTuning {
    return new BillingTuning({
      paymentPollMs: 15_000,
      claimBatchSize: Math.max(4, config.providerMaxConcurrency * 2),
      materializeBatchSize: 200,
      maxCatchUpPeriods: config.billingMaxCatchUpPeriods,
      ...overrides,
    });
  }
}
