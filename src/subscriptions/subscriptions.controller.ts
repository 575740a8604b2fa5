import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { ApplyCouponDto } from '../coupons/apply-coupon.dto';
import { CancelSubscriptionDto } from './dto/cancel-subscription.dto';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { SubscriptionEventResponseDto } from './dto/subscription-event-response.dto';
import { SubscriptionResponseDto } from './dto/subscription-response.dto';
import { toSubscriptionEventResponse, toSubscriptionResponse } from './subscription-response';
import { SubscriptionDiscountsService } from './subscription-discounts.service';
import { SubscriptionsService } from './subscriptions.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

@ApiTags('Subscriptions')
@Controller('api/v1/subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly discounts: SubscriptionDiscountsService,
  ) {}

  @ApiAdminRoute({
    summary: 'Subscribe a customer to a plan',
    description: 'Charges nothing until the customer is ready (status incomplete until then); a trial comes first when the plan has one.',
    body: true,
    idempotent: true,
    errors: ['not_found', 'business_rule', 'coupon_invalid', 'coupon_exhausted', 'coupon_not_applicable', 'first_time_only'],
  })
  @ApiCreatedResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:write')
  @Post()
  async create(@Body() dto: CreateSubscriptionDto, @ReservedId() reservedId?: string) {
    return toSubscriptionResponse(await this.subscriptions.create(dto, reservedId));
  }

  @ApiAdminRoute({ summary: 'List subscriptions', errors: ['validation_failed'] })
  @ApiPageResponse(SubscriptionResponseDto)
  @RequiresScope('subscriptions:read')
  @Get()
  async list(@Query() query: ListSubscriptionsQueryDto) {
    const page = await this.subscriptions.list(query);
    return { items: page.items.map(toSubscriptionResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a subscription', id: 'subscription' })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toSubscriptionResponse(await this.subscriptions.get(id));
  }

  @ApiAdminRoute({ summary: "A subscription's audit trail", description: 'Every change, newest first.', id: 'subscription' })
  @ApiPageResponse(SubscriptionEventResponseDto)
  @RequiresScope('subscriptions:read')
  @Get(':id/events')
  async events(@Param('id', UUID_PARAM) id: string, @Query() query: ListQueryDto) {
    const page = await this.subscriptions.events(id, query);
    return { items: page.items.map(toSubscriptionEventResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({
    summary: 'Cancel a subscription',
    description: 'At the end of the paid period by default, or now with atPeriodEnd false.',
    id: 'subscription',
    body: true,
    idempotent: true,
    errors: ['state_conflict'],
  })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:write')
  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@Param('id', UUID_PARAM) id: string, @Body() dto: CancelSubscriptionDto, @ReservedId() actionId?: string) {
    return toSubscriptionResponse(await this.subscriptions.cancel(id, dto.atPeriodEnd ?? true, actionId));
  }

  @ApiAdminRoute({ summary: 'Pause a subscription', description: 'Nothing is charged while paused.', id: 'subscription', body: true, idempotent: true, errors: ['state_conflict'] })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:write')
  @Post(':id/pause')
  @HttpCode(200)
  async pause(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto, @ReservedId() actionId?: string) {
    return toSubscriptionResponse(await this.subscriptions.pause(id, actionId));
  }

  @ApiAdminRoute({ summary: 'Resume a paused subscription', description: 'Billing goes on from a new period.', id: 'subscription', body: true, idempotent: true, errors: ['state_conflict'] })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:write')
  @Post(':id/resume')
  @HttpCode(200)
  async resume(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto, @ReservedId() actionId?: string) {
    return toSubscriptionResponse(await this.subscriptions.resume(id, actionId));
  }

  @ApiAdminRoute({
    summary: 'Apply a coupon to a subscription',
    description: 'Replaces the coupon in force, if any (one at a time); its discount applies from the next period charge.',
    id: 'subscription',
    body: true,
    idempotent: true,
    errors: ['state_conflict', 'coupon_invalid', 'coupon_exhausted', 'coupon_not_applicable', 'first_time_only'],
  })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:write')
  @Post(':id/discount')
  @HttpCode(200)
  async applyDiscount(@Param('id', UUID_PARAM) id: string, @Body() dto: ApplyCouponDto, @ReservedId() actionId?: string) {
    return toSubscriptionResponse(await this.discounts.apply(id, dto.couponCode, actionId));
  }

  @ApiAdminRoute({ summary: "Remove a subscription's coupon", description: 'Period charges made from now on are at full price; removing none changes nothing.', id: 'subscription' })
  @ApiOkResponse({ type: SubscriptionResponseDto })
  @RequiresScope('subscriptions:write')
  @Delete(':id/discount')
  async removeDiscount(@Param('id', UUID_PARAM) id: string) {
    return toSubscriptionResponse(await this.discounts.remove(id));
  }
}
