import { HttpException, HttpStatus } from '@nestjs/common';

/** 429 `rate_limited`: the exception filter adds `Retry-After` with these seconds. */
export class RateLimitedException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ statusCode: 429, error: 'Too Many Requests', message, code: 'rate_limited' }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
