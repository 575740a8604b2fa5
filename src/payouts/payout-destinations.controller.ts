import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
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

  /** Newest first. Registered before PayoutsController, so `/payouts/destinations` is this list, not a payout id. */
  @Get()
  async list(@Query() query: ListQueryDto): Promise<Page<PayoutDestinationResponse>> {
    const page = await this.destinations.list(query);
    return { items: page.items.map(toPayoutDestinationResponse), nextCursor: page.nextCursor };
  }

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutDestinationResponse> {
    return toPayoutDestinationResponse(await this.destinations.get(id));
  }
}
