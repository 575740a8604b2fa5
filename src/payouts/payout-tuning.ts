import { AppConfig } from '../config/app-config';

/** Payout engine knobs that are not part of the public configuration; tests shorten them by overriding the provider. */
export class PayoutTuning {
  /** How often an Unauthorized destination is read again. */
  destinationPollMs: number;
  /** Wait before the first read of a new withdrawal; doubles on each read up to maxPollDelayMs. */
  pollDelayMs: number;
  maxPollDelayMs: number;
  /** How long one worker keeps reading a new withdrawal before leaving it for a later pass. */
  inlinePollMs: number;
  /** Payouts worked on at once by one process (each holds at most one provider call at a time). */
  concurrency: number;
  /** Payouts claimed by one query. */
  claimBatchSize: number;

  constructor(values: Partial<PayoutTuning> = {}) {
    Object.assign(this, values);
  }

  static defaults(config: AppConfig, overrides: Partial<PayoutTuning> = {}): PayoutTuning {
    return new PayoutTuning({
      destinationPollMs: 5_000,
      pollDelayMs: 1_000,
      maxPollDelayMs: 60_000,
      inlinePollMs: 10_000,
      concurrency: config.providerMaxConcurrency,
      claimBatchSize: Math.max(4, config.providerMaxConcurrency),
      ...overrides,
    });
  }
}
