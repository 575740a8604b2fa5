import { AppConfig } from '../config/app-config';

/** Refund engine knobs that are not part of the public configuration; tests shorten them by overriding the provider. */
export class RefundTuning {
  /** Wait before the first read of a refund the provider holds as pending; doubles on each read up to maxPollDelayMs. */
  pollDelayMs: number;
  maxPollDelayMs: number;
  /** How long one worker keeps reading a pending refund before leaving it for a later pass. */
  inlinePollMs: number;
  /** A refund whose earlier refund of the same charge is still open looks again this soon (the earlier one wakes it too). */
  turnWaitMs: number;
  /** With the provider's refund webhooks registered, a pending refund is read this long after it was made, should its event never come. */
  eventSafetyNetMs: number;
  /** Refunds worked on at once by one process (each holds at most one provider call at a time). */
  concurrency: number;
  /** Refunds claimed by one query. */
  claimBatchSize: number;

  constructor(values: Partial<RefundTuning> = {}) {
    Object.assign(this, values);
  }

  static defaults(config: AppConfig, overrides: Partial<RefundTuning> = {}): RefundTuning {
    return new RefundTuning({
      pollDelayMs: 1_000,
      maxPollDelayMs: 60_000,
      inlinePollMs: 10_000,
      turnWaitMs: 5_000,
      eventSafetyNetMs: 5_000,
      concurrency: config.providerMaxConcurrency,
      claimBatchSize: Math.max(4, config.providerMaxConcurrency),
      ...overrides,
    });
  }
}
