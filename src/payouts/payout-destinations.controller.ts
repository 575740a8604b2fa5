import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePayoutDestinationDto } from './create-payout-destination.dto';
import { PayoutDestinationsService } from './payout-destinations.service';
import { PayoutDestinationResponse, toPayoutDestinationResponse } from './payout-responses';

@Controller('api/v1/payouts/destinations')
export class PayoutDestinationsController {
  constructor(private readonly destinations: PayoutDestinationsService) {}

  @Post()
  async create(@Body() body: CreatePayoutDestinationDto): Promise<PayoutDestinationResponse> {
    return toPayoutDestinationResponse(await this.destinations.create(body));
  }

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutDestinationResponse> {
    return toPayoutDestinationResponse(await this.destinations.get(id));
  }
}
