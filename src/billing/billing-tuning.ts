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
