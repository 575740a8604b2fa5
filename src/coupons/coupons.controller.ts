import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { RequiresScope } from '../common/auth/requires-scope.decorator';
import { EmptyBodyDto } from '../common/http/empty-body.dto';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { toCouponResponse } from './coupon-response';
import { CouponResponseDto } from './coupon-response.dto';
import { CouponsService } from './coupons.service';
import { CreateCouponDto } from './create-coupon.dto';
import { ListCouponsQueryDto } from './list-coupons-query.dto';

/** Admin API, section Coupons. */
@ApiTags('Coupons')
@Controller('api/v1/coupons')
export class CouponsController {
  constructor(private readonly coupons: CouponsService) {}

  @ApiAdminRoute({
    summary: 'Create a coupon',
    description: 'A percentage or an amount off period charges, once, for some periods or forever; applied to subscriptions by its `code`.',
    body: true,
    idempotent: true,
  })
  @ApiBody({
    type: CreateCouponDto,
    examples: {
      percent: { summary: 'Half price for three periods', value: { code: 'SPRING50', name: 'Spring: half price for three months', percentOff: 50, duration: 'repeating', durationPeriods: 3, maxRedemptions: 50 } },
      amount: { summary: 'An amount off the first period, for newcomers', value: { name: 'Welcome', amountOff: 50000, currency: 'RUB', duration: 'once', firstTimeOnly: true, redeemBy: '2027-12-31T23:59:59.000Z' } },
    },
  })
  @ApiCreatedResponse({ type: CouponResponseDto })
  @RequiresScope('coupons:write')
  @Post()
  async create(@Body() dto: CreateCouponDto, @ReservedId() reservedId?: string) {
    return toCouponResponse(await this.coupons.create(dto, reservedId));
  }

  @ApiAdminRoute({ summary: 'List coupons', errors: ['validation_failed'] })
  @ApiPageResponse(CouponResponseDto)
  @RequiresScope('coupons:read')
  @Get()
  async list(@Query() query: ListCouponsQueryDto) {
    const page = await this.coupons.list(query);
    return { items: page.items.map(toCouponResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a coupon', id: 'coupon' })
  @ApiOkResponse({ type: CouponResponseDto })
  @RequiresScope('coupons:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string) {
    return toCouponResponse(await this.coupons.get(id));
  }

  @ApiAdminRoute({
    summary: 'Archive a coupon',
    description: 'No subscription can use it from now on; those that have it keep it. Archiving an archived coupon changes nothing.',
    id: 'coupon',
    body: true,
    idempotent: true,
  })
  @ApiBody({ type: EmptyBodyDto, required: false })
  @ApiOkResponse({ type: CouponResponseDto })
  @RequiresScope('coupons:write')
  @Post(':id/archive')
  @HttpCode(HttpStatus.OK)
  async archive(@Param('id', UUID_PARAM) id: string, @Body() _body: EmptyBodyDto) {
    return toCouponResponse(await this.coupons.archive(id));
  }
}
