import { AppConfig } from '../config/app-config';

/** Engine knobs that are not part of the public configuration; tests shorten them. */
export class BillingTuning {
  /** How long a claimed charge stays with its worker; must outlast the provider calls of one step. */
  leaseMs: number;
  /** First backoff after a technical failure (provider down, network); doubles up to maxTechnicalBackoffMs. */
  technicalBackoffMs: number;
  maxTechnicalBackoffMs: number;
  /** How long one worker polls a pending payment before leaving it for the next pass. */
  paymentPollMs: number;
  /** Charges claimed at once by one worker. */
  claimBatchSize: number;
  /** Subscriptions materialized per transaction. */
  materializeBatchSize: number;

  constructor(values: Partial<BillingTuning> = {}) {
    Object.assign(this, values);
  }

  static defaults(config: AppConfig, overrides: Partial<BillingTuning> = {}): BillingTuning {
    return new BillingTuning({
      // Up to four tries per call (gateway retries) for each of the three calls of a step, plus polling.
      leaseMs: Math.max(120_000, config.providerTimeoutMs * 12 + 30_000),
      technicalBackoffMs: 60_000,
      maxTechnicalBackoffMs: 30 * 60_000,
      paymentPollMs: 15_000,
      claimBatchSize: Math.max(4, config.providerMaxConcurrency * 2),
      materializeBatchSize: 200,
      ...overrides,
    });
  }
}
