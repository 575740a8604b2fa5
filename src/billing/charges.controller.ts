import { Controller, Get, HttpCode, Param, Post, Query, Body } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { toChargeResponse } from './charge-response';
import { ChargeResponseDto } from './charge-response.dto';
import { ChargesService } from './charges.service';
import { ListChargesQueryDto } from './list-charges-query.dto';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';

@ApiTags('Charges')
@Controller('api/v1')
export class ChargesController {
  constructor(
    private readonly charges: ChargesService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @ApiAdminRoute({ summary: 'List charges', description: 'One charge is one billing period of one subscription.', errors: ['validation_failed'] })
  @ApiPageResponse(ChargeResponseDto)
  @Get('charges')
  async list(@Query() query: ListChargesQueryDto) {
    const { page, attempts } = await this.charges.list(query);
    return { items: page.items.map((c) => toChargeResponse(c, attempts.get(c.id) ?? [])), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a charge', id: 'charge' })
  @ApiOkResponse({ type: ChargeResponseDto })
  @Get('charges/:id')
  async get(@Param('id', UUID_PARAM) id: string) {
    const { charge, attempts } = await this.charges.get(id);
    return toChargeResponse(charge, attempts);
  }

  @ApiAdminRoute({
    summary: 'Attempt a charge now',
    description: 'A new payment attempt at once; 409 when the charge succeeded or is still processing.',
    id: 'charge',
    body: true,
    idempotent: true,
    errors: ['state_conflict'],
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: ChargeResponseDto })
  @Post('charges/:id/retry')
  @HttpCode(200)
  async retry(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    const { charge, attempts } = await this.charges.retry(id);
    return toChargeResponse(charge, attempts);
  }

  @ApiAdminRoute({ summary: "A subscription's charges", id: 'subscription' })
  @ApiPageResponse(ChargeResponseDto)
  @ApiTags('Subscriptions')
  @Get('subscriptions/:id/charges')
  async forSubscription(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto) {
    await this.subscriptions.get(id);
    const { page, attempts } = await this.charges.list({ ...query, subscriptionId: id });
    return { items: page.items.map((c) => toChargeResponse(c, attempts.get(c.id) ?? [])), nextCursor: page.nextCursor };
  }
}
