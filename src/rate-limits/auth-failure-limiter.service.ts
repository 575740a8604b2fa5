import { Injectable, Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { AuthFailureLimit } from '../common/auth/auth-failure-limit';
import { SystemClock } from '../common/clock/system-clock';
import { RateLimitedException } from '../common/errors/rate-limited.exception';
import { MetricsService } from '../common/metrics/metrics.service';
import { AppConfig } from '../config/app-config';
import { parseRateLimit, RateLimit } from './rate-limit';
import { RateLimitBucketsRepository } from './rate-limit-buckets.repository';

/** Where a credential was refused: a bearer token of the API, or the console's sign-in. */
export type AuthFailureVia = 'bearer' | 'console_sign_in';

/** Most addresses one replica remembers as shut out; past it the memory starts afresh. */
const BLOCKED_LIMIT = 10_000;

/**
 * Failed authentication per client address (AUTH_FAILURE_LIMIT, shared by the replicas through the same token buckets
 * as API_RATE_LIMIT). Each failure takes a token; once an address has none left, this replica refuses everything it
 * sends with a credential (right or wrong, so guessing learns nothing) without looking, until a token is back.
 * Every failure is counted and logged with the address.
 */
@Injectable()
export class AuthFailureLimiterService implements AuthFailureLimit {
  private readonly logger = new Logger('Auth');
  private readonly limit: RateLimit;
  /** Addresses shut out, until when (ms). */
  private readonly blocked = new Map<string, number>();
  private readonly failures: Counter<'via' | 'result'>;

  constructor(
    config: AppConfig,
    private readonly buckets: RateLimitBucketsRepository,
    private readonly clock: SystemClock,
    metrics: MetricsService,
  ) {
    this.limit = parseRateLimit(config.authFailureLimit);
    this.failures = metrics.counter({
      name: 'auth_failures_total',
      help: 'Refused credentials (bearer or console sign-in), by result: refused (401) or rate_limited (429, the address over AUTH_FAILURE_LIMIT)',
      labelNames: ['via', 'result'],
    });
  }

  /** Throws 429 when `address` is shut out for failing too often. */
  refuseIfBlocked(address: string, via: AuthFailureVia): void {
    const until = this.blocked.get(address);
    if (until === undefined) return;
    const left = until - this.clock.now().getTime();
    if (left <= 0) {
      this.blocked.delete(address);
      return;
    }
    this.failures.inc({ via, result: 'rate_limited' });
    throw this.refusal(Math.ceil(left / 1000));
  }

  /** Notes a failed credential from `address`; throws 429 instead of the caller's 401 when the address is over the limit. */
  async failed(address: string, via: AuthFailureVia): Promise<void> {
    const { allowed, tokens } = await this.buckets.take(`address:${address}`, this.limit, this.clock.now());
    if (allowed) {
      this.failures.inc({ via, result: 'refused' });
      this.logger.warn({ clientAddress: address, via }, 'Authentication failed');
      return;
    }
    const seconds = Math.max(1, Math.ceil((1 - tokens) / this.limit.perSecond));
    if (this.blocked.size >= BLOCKED_LIMIT) this.blocked.clear();
    this.blocked.set(address, this.clock.now().getTime() + seconds * 1000);
    this.failures.inc({ via, result: 'rate_limited' });
    this.logger.warn({ clientAddress: address, via, retryAfterSeconds: seconds }, 'Too many failed authentications from this address: refused for a while');
    throw this.refusal(seconds);
  }

  private refusal(seconds: number): RateLimitedException {
    return new RateLimitedException(`Too many failed sign-ins from this address: at most ${this.limit.text} (AUTH_FAILURE_LIMIT); retry in ${seconds} s`, seconds);
  }
}
