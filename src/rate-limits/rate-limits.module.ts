import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthFailureLimiterService } from './auth-failure-limiter.service';
import { RateLimitBucket } from './rate-limit-bucket.entity';
import { RateLimitBucketsRepository } from './rate-limit-buckets.repository';
import { RateLimiterService } from './rate-limiter.service';

/** Rate limits shared by the replicas: requests per credential, failed authentication per client address. */
@Module({
  imports: [TypeOrmModule.forFeature([RateLimitBucket])],
  providers: [RateLimitBucketsRepository, RateLimiterService, AuthFailureLimiterService],
  exports: [RateLimiterService, AuthFailureLimiterService],
})
export class RateLimitsModule {}
