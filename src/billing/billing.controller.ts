import { Controller, HttpCode, Post, Body } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute } from '../common/api-docs/api-route.decorators';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { BillingRunResponseDto } from './billing-run-response.dto';
import { BillingRunService } from './billing-run.service';
import { BillingSchedulerService } from './billing-scheduler.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Billing')
@Controller('api/v1/billing')
export class BillingController {
  constructor(
    private readonly scheduler: BillingSchedulerService,
    private readonly billing: BillingRunService,
  ) {}

  /** One full pass now; answers when the work it took is settled or scheduled. */
  @ApiAdminRoute({
    summary: 'Run one billing pass now',
    description:
      'The same work the scheduler does (due subscriptions, due retries, outcomes still open); answers when the work it took is settled or scheduled: a payment the provider has not decided yet is waited for up to 15 seconds, then counted as `unknown` and followed up by the engine.',
    body: true,
    idempotent: true,
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: BillingRunResponseDto })
  @RequiresScope('admin')
  @Post('run')
  @HttpCode(200)
  async run(@Body() _body: EmptyBodyDto) {
    const summary = await this.billing.whenSettled(await this.scheduler.runNow());
    const { due, succeeded, declined, unknown, waitingForAllowedHours, waitingForAttemptCap, skippedNotReady, created, failedSubscriptions } = summary;
    return { due, succeeded, declined, unknown, waitingForAllowedHours, waitingForAttemptCap, skippedNotReady, created, failedSubscriptions };
  }
}
