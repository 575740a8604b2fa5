import { Controller, HttpCode, Post, Body } from '@nestjs/common';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { BillingSchedulerService } from './billing-scheduler.service';

@Controller('api/v1/billing')
export class BillingController {
  constructor(private readonly scheduler: BillingSchedulerService) {}

  /** One full pass now; answers when the work it took is settled or scheduled. */
  @Post('run')
  @HttpCode(200)
  async run(@Body() _body: EmptyBodyDto) {
    const { due, succeeded, declined, unknown, skippedNotReady, created } = await this.scheduler.runNow();
    return { due, succeeded, declined, unknown, skippedNotReady, created };
  }
}
