import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthFailureLimiterService } from './auth-failure-limiter.service';
import { RateLimitBucket } from './rate-limit-bucket.entity';
import { RateLimitBucketsRepository } from './rate-limit-buckets.repository';
import { PageRateLimiterService } from './page-rate-limiter.service';
import { RateLimiterService } from './rate-limiter.service';

/** Rate limits shared by the replicas: requests per credential, failed authentication and recovery pages per client address. */
@Module({
  imports: [TypeOrmModule.forFeature([RateLimitBucket])],
  providers: [RateLimitBucketsRepository, RateLimiterService, AuthFailureLimiterService, PageRateLimiterService],
  exports: [RateLimiterService, AuthFailureLimiterService, PageRateLimiterService],
})
export class RateLimitsModule {}
