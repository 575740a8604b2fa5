import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthFailureLimit } from '../common/auth/auth-failure-limit';
import { CredentialRateLimit } from '../common/auth/credential-rate-limit';
import { AuthFailureLimiterService } from './auth-failure-limiter.service';
import { RateLimitBucket } from './rate-limit-bucket.entity';
import { RateLimitBucketsRepository } from './rate-limit-buckets.repository';
import { PageRateLimiterService } from './page-rate-limiter.service';
import { RateLimiterService } from './rate-limiter.service';

/** Rate limits shared by the replicas: requests per credential, failed authentication and recovery pages per client address (the admin guard's CredentialRateLimit and AuthFailureLimit). */
@Module({
  imports: [TypeOrmModule.forFeature([RateLimitBucket])],
  providers: [
    RateLimitBucketsRepository,
    RateLimiterService,
    AuthFailureLimiterService,
    PageRateLimiterService,
    { provide: CredentialRateLimit, useExisting: RateLimiterService },
    { provide: AuthFailureLimit, useExisting: AuthFailureLimiterService },
  ],
  exports: [RateLimiterService, AuthFailureLimiterService, PageRateLimiterService, CredentialRateLimit, AuthFailureLimit],
})
export class RateLimitsModule {}
