import { Body, Controller, Get, Post } from '@nestjs/common';
import { CreatePayoutSetupDto } from './create-payout-setup.dto';
import { PayoutSetupResponse, toPayoutSetupResponse } from './payout-responses';
import { PayoutSetupService } from './payout-setup.service';

@Controller('api/v1/payouts/setup')
export class PayoutSetupController {
  constructor(private readonly setup: PayoutSetupService) {}

  @Post()
  async create(@Body() body: CreatePayoutSetupDto): Promise<PayoutSetupResponse> {
    return toPayoutSetupResponse(await this.setup.setUp(body));
  }

  @Get()
  async get(): Promise<PayoutSetupResponse> {
    return toPayoutSetupResponse(await this.setup.get());
  }
}
