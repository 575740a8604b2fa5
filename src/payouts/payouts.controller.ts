import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiAdminRoute, ApiPageResponse } from '../common/api-docs/api-route.decorators';
import { Page } from '../common/http/pagination';
import { ReservedId } from '../common/http/reserved-id.decorator';
import { UUID_PARAM } from '../common/http/uuid-param.pipe';
import { CreatePayoutDto } from './create-payout.dto';
import { ListPayoutsQueryDto } from './list-payouts-query.dto';
import { PayoutResponse, toPayoutResponse } from './payout-responses';
import { PayoutResponseDto } from './payout-response.dto';
import { PayoutsService } from './payouts.service';
import { RequiresScope } from '../common/auth/requires-scope.decorator';

/** Registered after the setup, destination and batch controllers: `:id` must not swallow their paths. */
@ApiTags('Payouts')
@Controller('api/v1/payouts')
export class PayoutsController {
  constructor(private readonly payouts: PayoutsService) {}

  /** 202: the payout is accepted; the scheduler sends it. 200: its reference already names this very payout. */
  @ApiAdminRoute({
    summary: 'Accept a payout',
    description: 'The scheduler sends it once its destination is authorized; follow it with GET.',
    body: true,
    idempotent: true,
    errors: ['business_rule', 'payout_reference_taken'],
  })
  @ApiAcceptedResponse({ type: PayoutResponseDto })
  @ApiOkResponse({ type: PayoutResponseDto, description: 'The `reference` already names this payout, made with the same body: it is answered as it is now.' })
  @RequiresScope('payouts:write')
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  async create(@Body() body: CreatePayoutDto, @Res({ passthrough: true }) res: Response, @ReservedId() reservedId?: string): Promise<PayoutResponse> {
    const { payout, created } = await this.payouts.create(body, reservedId);
    if (!created) res.status(HttpStatus.OK);
    return toPayoutResponse(payout);
  }

  @ApiAdminRoute({ summary: 'List payouts', errors: ['validation_failed'] })
  @ApiPageResponse(PayoutResponseDto)
  @RequiresScope('payouts:read')
  @Get()
  async list(@Query() query: ListPayoutsQueryDto): Promise<Page<PayoutResponse>> {
    const page = await this.payouts.list(query);
    return { items: page.items.map(toPayoutResponse), nextCursor: page.nextCursor };
  }

  @ApiAdminRoute({ summary: 'Read a payout', id: 'payout' })
  @ApiOkResponse({ type: PayoutResponseDto })
  @RequiresScope('payouts:read')
  @Get(':id')
  async get(@Param('id', UUID_PARAM) id: string): Promise<PayoutResponse> {
    return toPayoutResponse(await this.payouts.get(id));
  }
}
