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
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Charges')
@Controller('api/v1')
export class ChargesController {
  constructor(
    private readonly charges: ChargesService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @ApiAdminRoute({ summary: 'List charges', description: 'One charge is one billing period of one subscription.', errors: ['validation_failed'] })
  @ApiPageResponse(ChargeResponseDto)
  @RequiresScope('charges:read')
  @Get('charges')
  async list(@Query() query: ListChargesQueryDto) {
    const { page, attempts, refunded } = await this.charges.list(query);
    return { items: page.items.map((c) => toChargeResponse(c, attempts.get(c.id) ?? [], refunded.get(c.id) ?? 0)), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a charge', id: 'charge' })
  @ApiOkResponse({ type: ChargeResponseDto })
  @RequiresScope('charges:read')
  @Get('charges/:id')
  async get(@Param('id', UUID_PARAM) id: string) {
    const { charge, attempts, amountRefunded } = await this.charges.get(id);
    return toChargeResponse(charge, attempts, amountRefunded);
  }

  @ApiAdminRoute({
    summary: 'Attempt a charge now',
    description:
      "A new payment attempt at once. On a charge declined before it is outside the dunning ladder (`manual: true`): a decline of it spends no step of the ladder, moves no scheduled attempt and leaves the subscription's status as it was (a hard decline waits for a new card). 409 when the charge succeeded, is still processing, is canceled or skipped, or the card has had as many attempts in 30 days as the card networks allow.",
    id: 'charge',
    body: true,
    idempotent: true,
    errors: ['state_conflict'],
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: ChargeResponseDto })
  @RequiresScope('charges:write')
  @Post('charges/:id/retry')
  @HttpCode(200)
  async retry(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    const { charge, attempts, amountRefunded } = await this.charges.retry(id);
    return toChargeResponse(charge, attempts, amountRefunded);
  }

  @ApiAdminRoute({ summary: "A subscription's charges", id: 'subscription' })
  @ApiPageResponse(ChargeResponseDto)
  @ApiTags('Subscriptions')
  @RequiresScope('charges:read')
  @Get('subscriptions/:id/charges')
  async forSubscription(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto) {
    await this.subscriptions.get(id);
    const { page, attempts, refunded } = await this.charges.list({ ...query, subscriptionId: id });
    return { items: page.items.map((c) => toChargeResponse(c, attempts.get(c.id) ?? [], refunded.get(c.id) ?? 0)), nextCursor: page.nextCursor };
  }
}
