import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CancelSubscriptionDto } from './dto/cancel-subscription.dto';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { toSubscriptionEventResponse, toSubscriptionResponse } from './subscription-response';
import { SubscriptionsService } from './subscriptions.service';

@Controller('api/v1/subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  async create(@Body() dto: CreateSubscriptionDto) {
    return toSubscriptionResponse(await this.subscriptions.create(dto));
  }

  @Get()
  async list(@Query() query: ListSubscriptionsQueryDto) {
    const page = await this.subscriptions.list(query);
    return { items: page.items.map(toSubscriptionResponse), nextCursor: page.nextCursor };
  }

  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toSubscriptionResponse(await this.subscriptions.get(id));
  }

  @Get(':id/events')
  async events(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto) {
    const page = await this.subscriptions.events(id, query);
    return { items: page.items.map(toSubscriptionEventResponse), nextCursor: page.nextCursor };
  }

  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@Param('id', UUID_PARAM) id: string, @Body() dto: CancelSubscriptionDto) {
    return toSubscriptionResponse(await this.subscriptions.cancel(id, dto.atPeriodEnd ?? true));
  }

  @Post(':id/pause')
  @HttpCode(200)
  async pause(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    return toSubscriptionResponse(await this.subscriptions.pause(id));
  }

  @Post(':id/resume')
  @HttpCode(200)
  async resume(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    return toSubscriptionResponse(await this.subscriptions.resume(id));
  }
}
