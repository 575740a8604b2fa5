import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Counter } from 'prom-client';
import type { Credential } from '../common/auth/actor';
import { CredentialRateLimit } from '../common/auth/credential-rate-limit';
import { SystemClock } from '../common/clock/system-clock';
import { RateLimitedException } from '../common/errors/rate-limited.exception';
import { MetricsService } from '../common/metrics/metrics.service';
import { RetentionService } from '../common/retention/retention.service';
import { AppConfig } from '../config/app-config';
import { parseRateLimit, RateLimit } from './rate-limit';
import { RateLimitBucketsRepository } from './rate-limit-buckets.repository';

/** A bucket untouched this long is full again whatever its rate: it is deleted. */
const IDLE_BUCKET_MS = 3_600_000;

/**
 * API_RATE_LIMIT per credential, counted by every replica in one PostgreSQL token bucket per credential: one statement
 * per authenticated request (an upsert of one row of an UNLOGGED table). Exact across replicas, whatever the load
 * balancer does, at the price of that round trip; health, metrics and the other public routes never reach it.
 */
@Injectable()
export class RateLimiterService implements OnModuleInit, CredentialRateLimit {
  private readonly limit: RateLimit;
  private readonly requests: Counter<'credential' | 'result'>;

  constructor(
    config: AppConfig,
    private readonly buckets: RateLimitBucketsRepository,
    private readonly clock: SystemClock,
    private readonly retention: RetentionService,
    metrics: MetricsService,
  ) {
    this.limit = parseRateLimit(config.apiRateLimit);
    this.requests = metrics.counter({
      name: 'api_requests_total',
      help: 'Authenticated admin API requests, by credential (admin_token or the API key id) and result (admitted, rate_limited)',
      labelNames: ['credential', 'result'],
    });
  }

  onModuleInit(): void {
    this.retention.register('idle rate limit buckets', () => this.buckets.pruneBefore(new Date(this.clock.now().getTime() - IDLE_BUCKET_MS)));
  }

  /** Counts one request of `credential`; over the limit, throws 429 with the seconds until a token is back. */
  async admit(credential: Credential): Promise<void> {
    const label = credential.actor.id ?? 'admin_token';
    const { allowed, tokens } = await this.buckets.take(`credential:${credential.rateKey}`, this.limit, this.clock.now());
    this.requests.inc({ credential: label, result: allowed ? 'admitted' : 'rate_limited' });
    if (allowed) return;
    const seconds = Math.max(1, Math.ceil((1 - tokens) / this.limit.perSecond));
    throw new RateLimitedException(`Too many requests with this credential: at most ${this.limit.text} (API_RATE_LIMIT); retry in ${seconds} s`, seconds);
  }
}
