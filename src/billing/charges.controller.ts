import { Controller, Get, HttpCode, Param, Post, Query, Body } from '@nestjs/common';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { toChargeResponse } from './charge-response';
import { ChargesService } from './charges.service';
import { ListChargesQueryDto } from './list-charges-query.dto';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';

@Controller('api/v1')
export class ChargesController {
  constructor(
    private readonly charges: ChargesService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @Get('charges')
  async list(@Query() query: ListChargesQueryDto) {
    const { page, attempts } = await this.charges.list(query);
    return { items: page.items.map((c) => toChargeResponse(c, attempts.get(c.id) ?? [])), nextCursor: page.nextCursor };
  }

  @Get('charges/:id')
  async get(@Param('id', UUID_PARAM) id: string) {
    const { charge, attempts } = await this.charges.get(id);
    return toChargeResponse(charge, attempts);
  }

  @Post('charges/:id/retry')
  @HttpCode(200)
  async retry(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    const { charge, attempts } = await this.charges.retry(id);
    return toChargeResponse(charge, attempts);
  }

  @Get('subscriptions/:id/charges')
  async forSubscription(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto) {
    await this.subscriptions.get(id);
    const { page, attempts } = await this.charges.list({ ...query, subscriptionId: id });
    return { items: page.items.map((c) => toChargeResponse(c, attempts.get(c.id) ?? [])), nextCursor: page.nextCursor };
  }
}
