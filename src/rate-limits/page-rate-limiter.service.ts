import { Injectable } from '@nestjs/common';
import { SystemClock } from '../common/clock/system-clock';
import { RateLimitedException } from '../common/errors/rate-limited.exception';
import { AppConfig } from '../config/app-config';
import { parseRateLimit, RateLimit } from './rate-limit';
import { RateLimitBucketsRepository } from './rate-limit-buckets.repository';

/**
 * RECOVERY_PAGE_RATE_LIMIT per client address on the public recovery pages (/pay/…), in the token buckets every replica
 * shares (`page:<address>`). Those pages carry no credential, so nothing of API_RATE_LIMIT is spent on them.
 */
@Injectable()
export class PageRateLimiterService {
  private readonly limit: RateLimit;

  constructor(
    config: AppConfig,
    private readonly buckets: RateLimitBucketsRepository,
    private readonly clock: SystemClock,
  ) {
    this.limit = parseRateLimit(config.recoveryPageRateLimit);
  }

  /** Counts one request from `address`; over the limit, throws 429 with the seconds until a token is back. */
  async admit(address: string): Promise<void> {
    const { allowed, tokens } = await this.buckets.take(`page:${address}`, this.limit, this.clock.now());
    if (allowed) return;
    const seconds = Math.max(1, Math.ceil((1 - tokens) / this.limit.perSecond));
    throw new RateLimitedException(`Too many requests from this address: at most ${this.limit.text} (RECOVERY_PAGE_RATE_LIMIT); retry in ${seconds} s`, seconds);
  }
}
