import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse, PROVIDER_ERRORS } from '../common/api-docs/api-route.decorators';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Page } from '../common/http/pagination';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePayoutDestinationDto } from './create-payout-destination.dto';
import { PayoutDestinationResponseDto } from './payout-destination-response.dto';
import { PayoutDestinationsService } from './payout-destinations.service';
import { PayoutDestinationResponse, toPayoutDestinationResponse } from './payout-responses';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Payouts')
@Controller('api/v1/payouts/destinations')
export class PayoutDestinationsController {
  constructor(private readonly destinations: PayoutDestinationsService) {}

  @ApiAdminRoute({
    summary: 'Add a payout destination (a card)',
    description: 'Send exactly one of `card` (tokenized at the provider, never stored or logged) or `cardToken`. Payouts to it wait until the provider authorizes it.',
    body: true,
    idempotent: true,
    errors: [...PROVIDER_ERRORS, 'business_rule'],
  })
  @ApiBody({
    type: CreatePayoutDestinationDto,
    examples: {
      card: { summary: 'A card to tokenize', value: { name: 'Courier 17', currency: 'RUB', card: { cardNumber: '4242424242424242', expDate: '12/30', cardHolder: 'IVAN PETROV' } } },
      cardToken: { summary: 'A card token you already have', value: { name: 'Courier 17', currency: 'RUB', cardToken: 'eyJjYXJkIjoidG9rZW4ifQ' } },
    },
  })
  @ApiCreatedResponse({ type: PayoutDestinationResponseDto })
  @RequiresScope('payouts:write')
  @Post()
  async create(@Body() body: CreatePayoutDestinationDto): Promise<PayoutDestinationResponse> {
    return toPayoutDestinationResponse(await this.destinations.create(body));
  }

  /** Newest first. Registered before PayoutsController, so `/payouts/destinations` is this list, not a payout id. */
  @ApiAdminRoute({ summary: 'List payout destinations', errors: ['validation_failed'] })
  @ApiPageResponse(PayoutDestinationResponseDto)
  @RequiresScope('payouts:read')
  @Get()
  async list(@Query() query: ListQueryDto): Promise<Page<PayoutDestinationResponse>> {
    const page = await this.destinations.list(query);
    return { items: page.items.map(toPayoutDestinationResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a payout destination', id: 'payout destination' })
  @ApiOkResponse({ type: PayoutDestinationResponseDto })
  @RequiresScope('payouts:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutDestinationResponse> {
    return toPayoutDestinationResponse(await this.destinations.get(id));
  }
}
